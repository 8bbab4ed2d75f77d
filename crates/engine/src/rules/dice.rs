//! A roll of two dice.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Why a text or pair of numbers is not a roll of two dice.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DiceError {
    /// A die value outside 1..=6.
    #[error("a die shows 1 to 6, not {0}")]
    OutOfRange(u8),
    /// The text is not two digits such as `31`.
    #[error("dice are written as two digits from 1 to 6, such as 31, not {}", crate::formats::quote(.0))]
    BadText(String),
}

/// Two dice in the order they were written (GNU Backgammon writes the larger first; other programs
/// do not always, and the Match ID keeps the order, so it is preserved here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    first: u8,
    second: u8,
}

impl Dice {
    /// A roll; each die must be 1..=6.
    pub fn new(first: u8, second: u8) -> Result<Dice, DiceError> {
        for d in [first, second] {
            if !(1..=6).contains(&d) {
                return Err(DiceError::OutOfRange(d));
            }
        }
        Ok(Dice { first, second })
    }

    /// All 21 distinct rolls, larger die first: the 6 doubles and 15 non-doubles.
    pub fn all() -> impl Iterator<Item = Dice> {
        (1..=6u8).flat_map(|a| {
            (1..=a).map(move |b| Dice {
                first: a,
                second: b,
            })
        })
    }

    /// The first die as written.
    pub fn first(self) -> u8 {
        self.first
    }

    /// The second die as written.
    pub fn second(self) -> u8 {
        self.second
    }

    /// The larger die.
    pub fn high(self) -> u8 {
        self.first.max(self.second)
    }

    /// The smaller die.
    pub fn low(self) -> u8 {
        self.first.min(self.second)
    }

    /// True for a double (both dice equal): it is played four times.
    pub fn is_double(self) -> bool {
        self.first == self.second
    }

    /// The same roll with the larger die first, as GNU Backgammon writes it.
    pub fn normalized(self) -> Dice {
        Dice {
            first: self.high(),
            second: self.low(),
        }
    }

    /// Number of ways out of 36 to roll this (1 for a double, 2 otherwise).
    pub fn weight(self) -> u32 {
        if self.is_double() {
            1
        } else {
            2
        }
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.first, self.second)
    }
}

impl FromStr for Dice {
    type Err = DiceError;

    /// Parses `31`, `3-1`, `3 1` or `3,1`.
    fn from_str(s: &str) -> Result<Dice, DiceError> {
        let digits: Vec<char> = s
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | ' ' | ','))
            .collect();
        match digits.as_slice() {
            [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => {
                Dice::new(*a as u8 - b'0', *b as u8 - b'0')
            }
            _ => Err(DiceError::BadText(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100_000))]

        /// Any text: parsing never panics, and what parses is two dice in 1..=6.
        #[test]
        fn parse_never_panics(text in "\\PC{0,6}|[0-9 ,-]{0,5}") {
            if let Ok(d) = text.parse::<Dice>() {
                prop_assert!((1..=6).contains(&d.first()) && (1..=6).contains(&d.second()));
            }
        }
    }

    #[test]
    fn parse_and_count() {
        assert_eq!("31".parse::<Dice>().unwrap(), Dice::new(3, 1).unwrap());
        assert_eq!("1-3".parse::<Dice>().unwrap().high(), 3);
        assert!("37".parse::<Dice>().is_err());
        assert!("3".parse::<Dice>().is_err());
        assert!("".parse::<Dice>().is_err());
        assert!("ab".parse::<Dice>().is_err());
        assert!("٣١".parse::<Dice>().is_err());
        assert_eq!(Dice::all().count(), 21);
        assert_eq!(Dice::all().map(Dice::weight).sum::<u32>(), 36);
    }
}
