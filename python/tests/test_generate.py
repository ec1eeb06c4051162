"""generate() reaches every option of `sudolab generate` through the library's one generation
request: the same puzzles as the command line for the same options, and its refusals with the
command line's words."""

import json
import subprocess

import pytest

import sudolab


def cli_generate(cli, *args):
    """The command line's generate, its JSON document parsed."""
    done = subprocess.run([str(cli), "generate", "--json", *args], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def cli_refusal(cli, *args):
    """The command line's one-line refusal of these options, without its `sudolab: ` prefix."""
    done = subprocess.run([str(cli), "generate", *args], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    prefix = "sudolab: "
    assert done.stderr.startswith(prefix), done.stderr
    return done.stderr[len(prefix):].rstrip("\n")


def test_a_rating_range_keeps_the_puzzles_the_command_line_keeps(cli):
    table = sudolab.generate(3, seed=2, rating="2.0..3.0", jobs=2)
    rows = table.to_pylist()
    expected = cli_generate(cli, "-c", "3", "--seed", "2", "--rating", "2.0..3.0")["puzzles"]
    assert [r["puzzle"] for r in rows] == [p["line"] for p in expected]
    assert [r["index"] for r in rows] == [p["index"] for p in expected]
    assert [r["human_rating"] for r in rows] == [p["human_rating"] for p in expected]
    assert all(2.0 <= r["human_rating"] <= 3.0 for r in rows)
    # The filter skipped candidates: some index in 0..2 was not kept.
    assert [r["index"] for r in rows] != [0, 1, 2]
    # The step solver rates them so on its own too.
    rated = subprocess.run([str(cli), "rate", "--json", *[r["puzzle"] for r in rows]],
                           capture_output=True, text=True, check=True)
    ratings = [json.loads(line)["rating"] for line in rated.stdout.splitlines()]
    assert ratings == [r["human_rating"] for r in rows]


def test_no_guess_keeps_puzzles_fast_solves_by_propagation(cli):
    rows = sudolab.generate(4, seed=5, size=4, rating="no-guess").to_pylist()
    assert [r["no_guess"] for r in rows] == [True] * 4
    expected = cli_generate(cli, "-c", "4", "--seed", "5", "--size", "4", "--rating",
                            "no-guess")["puzzles"]
    assert [r["puzzle"] for r in rows] == [p["line"] for p in expected]


def test_verifiers_reprove_each_puzzle(cli):
    table = sudolab.generate(3, seed=4, size=6, verify=["dlx-knuth", "sat"])
    assert table["problems"].to_pylist() == [None, None, None]
    as_text = sudolab.generate(3, seed=4, size=6, verify="dlx-knuth,sat")
    assert as_text["puzzle"].to_pylist() == table["puzzle"].to_pylist()
    expected = cli_generate(cli, "-c", "3", "--seed", "4", "--size", "6", "--verify",
                            "dlx-knuth,sat")
    assert expected["verify"] == ["dlx-knuth", "sat"]
    assert table["puzzle"].to_pylist() == [p["line"] for p in expected["puzzles"]]
    # Without verifiers there is nothing to report.
    assert "problems" not in sudolab.generate(1, seed=4, size=6).column_names


def test_qwh_empties_holes_in_a_latin_square(cli):
    rows = sudolab.generate(3, seed=3, size=5, model="qwh", holes=7).to_pylist()
    assert [r["holes"] for r in rows] == [7, 7, 7]
    for row in rows:
        puzzle, solution = row["puzzle"], row["solution"]
        assert puzzle.count(".") == 7
        assert all(p in (".", s) for p, s in zip(puzzle, solution))
        lines = [solution[i:i + 5] for i in range(0, 25, 5)]
        assert all(sorted(line) == list("12345") for line in lines)
        assert all(sorted(column) == list("12345") for column in zip(*lines))
    done = subprocess.run([str(cli), "generate", "--model", "qwh", "--size", "5", "--holes",
                           "7", "-c", "3", "--seed", "3", "--with-solution"],
                          capture_output=True, text=True, check=True)
    assert [f"{r['puzzle']} {r['solution']}" for r in rows] == done.stdout.splitlines()
    balanced = sudolab.generate(1, seed=3, size=6, model="gsp", holes=12,
                                balance="full").to_pylist()[0]["puzzle"]
    # 12 holes on a 6x6 board, balanced: two in every row and two in every column.
    assert [balanced[i:i + 6].count(".") for i in range(0, 36, 6)] == [2] * 6
    assert [balanced[i::6].count(".") for i in range(6)] == [2] * 6


def test_a_variant_gives_puzzles_unique_under_its_rules(cli):
    table = sudolab.generate(2, seed=6, size=4, variant="x")
    expected = cli_generate(cli, "-c", "2", "--seed", "6", "--size", "4", "--variant", "x")
    assert expected["variant"] == "x"
    assert table["puzzle"].to_pylist() == [p["line"] for p in expected["puzzles"]]
    assert [json.loads(p) for p in table["puzzle_json"].to_pylist()] == [
        p["puzzle"] for p in expected["puzzles"]]
    counted = sudolab.count(table["puzzle"].to_pylist(), limit=0, variant="x")
    assert counted["solutions"].to_pylist() == [1, 1]
    plain = sudolab.count(table["puzzle"].to_pylist(), limit=0)
    assert all(n > 1 for n in plain["solutions"].to_pylist())


def test_a_rules_file_gives_jigsaw_puzzles(root, cli):
    rules = root / "corpora" / "variants" / "regions" / "jigsaw-9x9.json"
    table = sudolab.generate(1, seed=2, rules=rules, clues=40)
    expected = cli_generate(cli, "-c", "1", "--seed", "2", "--rules", str(rules), "--clues", "40")
    assert expected["variant"] == "jigsaw"
    puzzle = json.loads(table["puzzle_json"].to_pylist()[0])
    assert puzzle == expected["puzzles"][0]["puzzle"]
    assert puzzle["regions"] == json.loads(rules.read_text())["regions"]
    assert table["clues"].to_pylist() == [40]


@pytest.mark.parametrize("python, args", [
    ({"model": "qwh"}, ["--model", "qwh"]),
    ({"holes": 3}, ["--holes", "3"]),
    ({"model": "gsp", "holes": 82}, ["--model", "gsp", "--holes", "82"]),
    ({"model": "qwh", "holes": 3, "verify": ["sat"]},
     ["--model", "qwh", "--holes", "3", "--verify", "sat"]),
    ({"variant": "x", "rating": "guess"}, ["--variant", "x", "--rating", "guess"]),
    ({"variant": "x", "technique": "x-wing"}, ["--variant", "x", "--technique", "x-wing"]),
    ({"verify": ["nope"]}, ["--verify", "nope"]),
    ({"verify": ["sat", "sat"]}, ["--verify", "sat,sat"]),
    ({"checker": "bogus"}, ["--checker", "bogus"]),
    ({"clues": 16}, ["--clues", "16"]),
    ({"rules": "/nonexistent/rules.toml"}, ["--rules", "/nonexistent/rules.toml"]),
])
def test_refusals_are_the_command_lines(cli, python, args):
    with pytest.raises(ValueError) as caught:
        sudolab.generate(1, **python)
    assert isinstance(caught.value, sudolab.OptionError)
    assert str(caught.value) == cli_refusal(cli, *args)


def test_a_killer_variant_with_cages_in_a_rules_file_is_refused(cli, tmp_path):
    rules = tmp_path / "cages.toml"
    rules.write_text('[[cages]]\nsum = 3\ncells = ["r1c1", "r1c2"]\n')
    with pytest.raises(sudolab.OptionError) as caught:
        sudolab.generate(1, variant="killer", rules=rules)
    assert str(caught.value) == cli_refusal(cli, "--variant", "killer", "--rules", str(rules),
                                            "--json")
    assert str(caught.value) == (
        "--variant killer draws its own cages, but --rules gives some; drop one of them")


def test_bad_values_name_the_parameter():
    for kwargs, message in [
        ({"rating": "hard"},
         "rating: expected guess, no-guess, any, or a range of ratings on Sudoku Explainer's "
         "scale such as 7.0..8.5 (0 to 20), found 'hard'"),
        ({"rating": "6..4"}, "rating: the range '6..4' is empty: MIN must not exceed MAX"),
        ({"propagation": "gac"},
         "propagation: unknown propagation level 'gac'; expected one of naked-singles, "
         "hidden-singles, locked-candidates, house-consistency, none"),
        ({"te_depth": 3}, "te_depth: expected 0 to 2, found 3"),
    ]:
        with pytest.raises(sudolab.OptionError) as caught:
            sudolab.generate(1, **kwargs)
        assert str(caught.value) == message
    for kwargs, start in [
        ({"technique": "x wing"}, "technique: unknown technique 'x wing'; expected one of "),
        ({"variant": "zigzag"}, "variant: "),
        ({"model": "sudoku2"}, "model: "),
        ({"balance": "cols"}, "balance: "),
    ]:
        with pytest.raises(sudolab.OptionError) as caught:
            sudolab.generate(1, **kwargs)
        assert str(caught.value).startswith(start), str(caught.value)


def test_a_technique_filter_keeps_puzzles_whose_path_uses_it(cli):
    rows = sudolab.generate(2, seed=1, technique="naked-pair").to_pylist()
    done = subprocess.run([str(cli), "generate", "-c", "2", "--seed", "1", "--technique",
                           "naked-pair"], capture_output=True, text=True, check=True)
    assert [r["puzzle"] for r in rows] == done.stdout.splitlines()
    for row in rows:
        steps = subprocess.run([str(cli), "steps", "--json", row["puzzle"]],
                               capture_output=True, text=True, check=True)
        techniques = [step["technique"] for step in json.loads(steps.stdout)["steps"]]
        assert "naked-pair" in techniques
