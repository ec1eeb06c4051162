//! Enums of plain choices (a file format, an encoding, a run order): each value has one name,
//! used by command lines, experiment files and reports alike. The library knows no argument
//! parser; a front end lists [`Choice::ALL`] with their names and help, and parses with
//! `FromStr`.

use std::fmt;

/// An enum whose values each have one name and one sentence of help.
pub trait Choice: Copy + Send + Sync + 'static {
    /// Every value, in the order help texts list them.
    const ALL: &'static [Self];
    /// What is being chosen, for error messages ("format", "encoding").
    const WHAT: &'static str;
    /// The value's name, as written on a command line or in a file.
    fn name(self) -> &'static str;
    /// The value's doc comment, for help texts.
    fn help(self) -> &'static str;
}

/// A name that is none of a [`Choice`]'s values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{given}'; expected one of: {valid}")]
pub struct UnknownChoice {
    /// What was being chosen.
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The valid names, comma-separated.
    pub valid: String,
}

/// The value named `text` (ASCII case ignored).
pub fn parse_choice<T: Choice>(text: &str) -> Result<T, UnknownChoice> {
    T::ALL
        .iter()
        .copied()
        .find(|value| value.name().eq_ignore_ascii_case(text))
        .ok_or_else(|| UnknownChoice {
            what: T::WHAT,
            given: text.to_string(),
            valid: names::<T>().join(", "),
        })
}

/// Every value's name, in order.
pub fn names<T: Choice>() -> Vec<&'static str> {
    T::ALL.iter().map(|value| value.name()).collect()
}

/// Writes a choice's name.
pub(crate) fn write_name<T: Choice>(value: T, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(value.name())
}

/// Declares a [`Choice`] enum: the enum with its docs, `Choice`, `Display` (the name),
/// `FromStr` and `Default`. Each value's help is its doc comment.
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal, default $default:ident) {
            $( $(#[doc = $doc:literal])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[doc = $doc])* $variant, )+
        }

        impl $crate::model::Choice for $name {
            const ALL: &'static [Self] = &[$(Self::$variant),+];
            const WHAT: &'static str = $what;
            fn name(self) -> &'static str {
                match self { $(Self::$variant => $text,)+ }
            }
            fn help(self) -> &'static str {
                match self { $(Self::$variant => concat!($($doc),*).trim_ascii_start(),)+ }
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::$default
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                $crate::model::choice::write_name(*self, f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::model::UnknownChoice;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                $crate::model::parse_choice(text)
            }
        }
    };
}
pub(crate) use choice;

#[cfg(test)]
mod tests {
    use super::*;

    choice! {
        /// A test choice.
        enum Colour ("colour", default Red) {
            /// Warm.
            Red = "red",
            /// Cool, and
            /// calm.
            Blue = "blue",
        }
    }

    #[test]
    fn names_parse_display_and_help_agree() {
        assert_eq!("BLUE".parse::<Colour>(), Ok(Colour::Blue));
        assert_eq!(Colour::Blue.to_string(), "blue");
        assert_eq!(Colour::default(), Colour::Red);
        assert_eq!(Colour::Blue.help(), "Cool, and calm.");
        assert_eq!(
            "green".parse::<Colour>().unwrap_err().to_string(),
            "unknown colour 'green'; expected one of: red, blue"
        );
    }
}
