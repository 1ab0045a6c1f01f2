//! One way to declare an option enum (a flag's set of named values): the
//! [`option_enum!`](crate::option_enum) macro declares the enum and gives it
//! `ALL`, `name()`, `Display`, `FromStr` (with an error listing the allowed
//! names) and the [`OptionEnum`] trait, so front ends (clap, experiment
//! specs) parse every option the same way without the encodings knowing
//! about them.

/// An enum whose values are named options (`--amo ladder`).
pub trait OptionEnum: Copy + Sized + 'static {
    /// What the option selects, for messages (e.g. `at-most-one encoding`).
    const WHAT: &'static str;
    /// Every value, in declaration order.
    const ALL: &'static [Self];
    /// The value's option name.
    fn name(self) -> &'static str;
    /// Every option name, in declaration order.
    fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|v| v.name()).collect()
    }
    /// Parses an option name; the error lists the allowed names.
    fn parse_name(s: &str) -> Result<Self, String> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown {} '{s}' (expected one of: {})",
                    Self::WHAT,
                    Self::names().join(", ")
                )
            })
    }
}

/// Declares an option enum: variants with their option names, plus
/// `Clone, Copy, Debug, PartialEq, Eq, Hash`, `ALL`, `name()`, `Display`,
/// `FromStr` and [`OptionEnum`]. Further attributes (docs, `derive(Default)`
/// with a `#[default]` variant) pass through.
///
/// ```
/// puzzlesat_encodings::option_enum! {
///     /// How to greet.
///     #[derive(Default)]
///     pub enum Greeting("greeting") {
///         /// politely
///         #[default]
///         Hello = "hello",
///         /// briefly
///         Hi = "hi",
///     }
/// }
/// assert_eq!("hi".parse::<Greeting>(), Ok(Greeting::Hi));
/// assert_eq!(Greeting::default().to_string(), "hello");
/// assert!("hey".parse::<Greeting>().unwrap_err().contains("expected one of: hello, hi"));
/// ```
#[macro_export]
macro_rules! option_enum {
    (@one $v:ident) => { 1 };
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident($what:literal) {
            $($(#[$vmeta:meta])* $variant:ident = $s:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; 0 $(+ $crate::option_enum!(@one $variant))+] = [$($name::$variant),+];
            /// The option name.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $s),+ }
            }
        }

        impl $crate::options::OptionEnum for $name {
            const WHAT: &'static str = $what;
            const ALL: &'static [$name] = &$name::ALL;
            fn name(self) -> &'static str {
                $name::name(self)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                <$name as $crate::options::OptionEnum>::parse_name(s)
            }
        }
    };
}
