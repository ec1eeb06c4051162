//! The checker on hand-written certificates (the producers' certificates are checked, and
//! mutated, in `tests/sudolab/certify.rs`).

use super::*;

/// A 1x1 puzzle, empty: its solution is 1. Clauses 1 to 4 are `[1]` (the cell, its row,
/// column and box), clause 5 the blocking clause `[-1]`.
fn one_by_one(proof: &str) -> String {
    format!(
        "{MAGIC}\nsource hand\nbox 1 1\npuzzle 0\nencoding {ENCODING}\nverdict unique\nsolution 1\n\
         blocking -1 0\nproducer hand\nproof lrat 1 {}\n{proof}end\n",
        proof.len()
    )
}

#[test]
fn a_hand_written_certificate_checks() {
    let verified = check_text(&one_by_one("6 0 1 5 0\n")).unwrap();
    assert_eq!(verified.verdict, Verdict::Unique);
    assert_eq!((verified.lemmas, verified.proof_bytes), (1, 10));
}

#[test]
fn faults_name_their_step() {
    let good = one_by_one("6 0 1 5 0\n");
    let cases: Vec<(String, &str, &str)> = vec![
        (
            good.replace("6 0 1 5 0", "6 0 1 2 0"),
            "proof",
            "already satisfied",
        ),
        (
            good.replace("solution 1", "solution 2"),
            "solution",
            "not a digit",
        ),
        (
            good.replace("blocking -1 0", "blocking 1 0"),
            "blocking",
            "not the negation",
        ),
        (
            good.replace("puzzle 0", "puzzle 1"),
            "blocking",
            "not the negation",
        ),
        (good.replace("\nend\n", "\n"), "format", "truncated"),
        (
            good.replace(MAGIC, "hello"),
            "format",
            "not a sudolab certificate",
        ),
        (
            good.replace("verdict unique", "verdict maybe"),
            "format",
            "unknown verdict",
        ),
        (
            good.replace("encoding sudolab-extended 1", "encoding other 2"),
            "format",
            "not the one",
        ),
        (
            good.replace("proof lrat 1 10", "proof lrat 1 11"),
            "proof",
            "header says 11",
        ),
        (
            good.replace("proof lrat 1 10", "proof lrat 2 10"),
            "proof",
            "header says 2",
        ),
        (good.replace("box 1 1", "box 9 1"), "puzzle", "each 1 to 8"),
        (
            good.replace("puzzle 0", "puzzle 0 0"),
            "puzzle",
            "has 1 cells",
        ),
        (
            good.replace("solution 1\n", ""),
            "solution",
            "needs 1 solution",
        ),
        (
            good.replace("end\n", "end\nmore\n"),
            "format",
            "after the 'end'",
        ),
        (String::new(), "format", "empty"),
    ];
    for (text, step, reason) in cases {
        let failure = check_text(&text).unwrap_err();
        assert_eq!(failure.step, step, "{text}: {failure:?}");
        assert!(failure.reason.contains(reason), "{text}: {failure:?}");
    }
}

#[test]
fn drat_drops_the_hints_and_spells_out_deletions() {
    let mut formula = Formula::new(2);
    for clause in [[1, 2], [-1, 2], [1, -2], [-1, -2]] {
        formula.push(&clause);
    }
    let drat = lrat_to_drat(&formula, "5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n").unwrap();
    assert_eq!(drat, "2 0\nd 1 2 0\nd -1 2 0\n0\n");
}

#[test]
fn repeated_lines_are_refused_with_their_line_numbers() {
    let good = one_by_one("6 0 1 5 0\n");
    let cases = [
        (
            good.replace("puzzle 0\n", "puzzle 0\npuzzle 1\n"),
            "line 5: a second 'puzzle' line (the first is line 4)",
        ),
        (
            good.replace("verdict unique\n", "verdict unique\nverdict none\n"),
            "line 7: a second 'verdict' line (the first is line 6)",
        ),
        (
            good.replace("blocking -1 0\n", "blocking -1 0\nblocking -1 0\n"),
            "line 9: a second 'blocking' line (the first is line 8)",
        ),
        (
            good.replace("solution 1\n", "solution 1\nsolution 1\n"),
            "line 8: a 'solution' line too many: verdict unique takes 1",
        ),
        (
            good.replace("solution 1\n", "solution 1\nsolution 1\nsolution 1\n"),
            "line 9: a third 'solution' line (the others are lines 7 and 8); a certificate \
             holds at most two",
        ),
    ];
    for (text, reason) in cases {
        let failure = parse(&text).unwrap_err();
        assert_eq!(failure.step, "format", "{text}");
        assert_eq!(failure.reason, reason, "{text}");
    }
}

#[test]
fn lines_and_proofs_are_bounded_as_they_are_read() {
    let good = one_by_one("6 0 1 5 0\n");
    let long = format!("puzzle {}\n", "0 ".repeat(MAX_LINE_BYTES));
    let failure = parse(&good.replace("puzzle 0\n", &long)).unwrap_err();
    assert_eq!(
        (failure.step.as_str(), failure.reason.as_str()),
        (
            "format",
            "line 4: longer than 65536 bytes (the longest a line before the proof may be)"
        )
    );
    // A stream without a line end is refused after the bound, not read to its end.
    let endless = std::io::BufReader::new(std::io::repeat(b'x'));
    let failure = read(endless).unwrap_err();
    assert_eq!(
        failure.reason,
        "line 1: longer than 65536 bytes (the longest a line before the proof may be)"
    );
    let failure = parse(&good.replace("proof lrat 1 10", "proof lrat 1 1073741825")).unwrap_err();
    assert_eq!(
        (failure.step.as_str(), failure.reason.as_str()),
        (
            "proof",
            "line 10: the header announces 1073741825 bytes of proof, more than this checker \
             reads (1073741824)"
        )
    );
    let failure = parse(&good.replace("proof lrat 1 10", "proof lrat 1 4")).unwrap_err();
    assert_eq!(
        (failure.step.as_str(), failure.reason.as_str()),
        (
            "proof",
            "line 11: the proof has more than 4 bytes by here, its header says 4"
        )
    );
    let failure = parse(&good.replace("6 0 1 5 0\n", &format!("6 0 1 5 0{}\n", " 0".repeat(20))))
        .unwrap_err();
    assert_eq!(
        (failure.step.as_str(), failure.reason.as_str()),
        (
            "format",
            "line 11: longer than 18 bytes (more than is left of the proof its header announces)"
        )
    );
}

#[test]
fn the_puzzle_is_named_in_the_line_form() {
    let bundle = parse(&one_by_one("6 0 1 5 0\n")).unwrap();
    assert_eq!(bundle.puzzle_text(), ".");
}
