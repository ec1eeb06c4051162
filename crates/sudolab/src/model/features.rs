//! The variants a name alone describes, in the form the command line's `--variant` takes them
//! (`x,anti-king`), and the [`RulesSpec`] they give.

use super::rules::RulesSpec;

/// The variants that a name alone describes, as `--variant x,anti-king` writes them: every one
/// but jigsaw (its regions) and killer (its cages), which need the JSON or TOML form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each flag is one independent rule named on the command line"
)]
pub struct Features {
    /// `latin`: rows and columns only.
    pub latin: bool,
    /// `x`: both main diagonals.
    pub diagonals: bool,
    /// `windoku`: the windows.
    pub windows: bool,
    /// `anti-king`.
    pub anti_king: bool,
    /// `anti-knight`.
    pub anti_knight: bool,
    /// `nonconsecutive`.
    pub nonconsecutive: bool,
    /// `killer`: random cages (only where sudolab draws them, `generate`).
    pub killer: bool,
}

/// The names `--variant` takes.
pub const FEATURE_NAMES: &str = "latin, x, windoku, anti-king, anti-knight, nonconsecutive, killer";

impl std::str::FromStr for Features {
    type Err = String;

    /// Names separated by `,` or `+`: `x,anti-king`, `windoku+nonconsecutive`.
    fn from_str(text: &str) -> Result<Features, String> {
        let mut features = Features::default();
        for name in text
            .split([',', '+'])
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            let flag = match name.to_ascii_lowercase().as_str() {
                "latin" => &mut features.latin,
                "x" | "diagonals" => &mut features.diagonals,
                "windoku" | "windows" => &mut features.windows,
                "anti-king" | "antiking" => &mut features.anti_king,
                "anti-knight" | "antiknight" => &mut features.anti_knight,
                "nonconsecutive" | "non-consecutive" => &mut features.nonconsecutive,
                "killer" => &mut features.killer,
                "jigsaw" => {
                    return Err(
                        "jigsaw needs its regions: write the puzzle in the JSON or TOML form \
                         (\"regions\", docs/variants.md)"
                            .into(),
                    );
                }
                _ => return Err(format!("unknown variant '{name}'; valid: {FEATURE_NAMES}")),
            };
            *flag = true;
        }
        Ok(features)
    }
}

impl Features {
    /// Adds these rules to `spec` (a rule named or written is on).
    pub fn add_to(self, spec: &mut RulesSpec) {
        spec.latin |= self.latin;
        spec.diagonals |= self.diagonals;
        spec.windows |= self.windows;
        spec.anti_king |= self.anti_king;
        spec.anti_knight |= self.anti_knight;
        spec.nonconsecutive |= self.nonconsecutive;
    }

    /// The rules these names give (no cages: `killer` draws them from a solution).
    pub fn spec(self) -> RulesSpec {
        RulesSpec {
            latin: self.latin,
            diagonals: self.diagonals,
            windows: self.windows,
            anti_king: self.anti_king,
            anti_knight: self.anti_knight,
            nonconsecutive: self.nonconsecutive,
            ..RulesSpec::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_give_their_rules() {
        let features: Features = "x, Anti-King+windows".parse().unwrap();
        let spec = features.spec();
        assert!(spec.diagonals && spec.anti_king && spec.windows);
        assert_eq!(spec.features(), ["x", "windoku", "anti-king"]);
        let mut written = RulesSpec {
            latin: true,
            ..RulesSpec::default()
        };
        features.add_to(&mut written);
        assert_eq!(written.features(), ["latin", "x", "windoku", "anti-king"]);
        assert!("".parse::<Features>().unwrap().spec().is_plain());
        assert!(
            "jigsaw"
                .parse::<Features>()
                .unwrap_err()
                .contains("regions")
        );
        assert_eq!(
            "x,sudoku".parse::<Features>().unwrap_err(),
            format!("unknown variant 'sudoku'; valid: {FEATURE_NAMES}")
        );
    }
}
