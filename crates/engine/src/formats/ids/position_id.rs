//! GNU Backgammon's Position ID: 14 characters of Base64 for the 80-bit key of a position.
//!
//! The key lists, for the player *not* on roll and then for the player on roll, each of that
//! player's points 1..=24 and the bar: one `1` bit per checker followed by a `0`. The bits are
//! packed least significant first into 10 bytes and written in Base64 without padding. This
//! module reproduces GNU Backgammon bit for bit (checked against thousands of IDs it printed).

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use thiserror::Error;

use crate::rules::position::{Position, PositionError, Side};

/// Length of a Position ID in characters.
pub const POSITION_ID_LEN: usize = 14;

const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::RequireNone),
);

/// Why a text is not a valid Position ID.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionIdError {
    #[error("a Position ID has 14 characters, this one has {0}")]
    Length(usize),
    #[error("character {ch:?} at position {index} is not Base64 (A-Z, a-z, 0-9, +, /)")]
    BadCharacter { ch: char, index: usize },
    #[error("the last character carries bits beyond the 80-bit key")]
    TrailingBits,
    #[error("the bits run out before both players' 25 slots are complete")]
    Truncated,
    #[error("bits are set after the end of the position key")]
    Garbage,
    #[error("not a legal position: {0}")]
    Position(#[from] PositionError),
}

/// The 10-byte key of a position.
pub fn position_key(position: &Position) -> [u8; 10] {
    let mut key = [0u8; 10];
    let mut bit = 0usize;
    for side in [Side::Opponent, Side::Player] {
        for count in position.side(side) {
            for _ in 0..count {
                key[bit / 8] |= 1 << (bit % 8);
                bit += 1;
            }
            bit += 1;
        }
    }
    key
}

/// The Position ID of `position` (oriented to the player on roll).
pub fn encode(position: &Position) -> String {
    ENGINE.encode(position_key(position))
}

/// The position from its 10-byte key.
pub fn from_key(key: &[u8; 10]) -> Result<Position, PositionIdError> {
    let mut sides = [[0u8; 25]; 2];
    let mut bit = 0usize;
    for side in sides.iter_mut() {
        for slot in side.iter_mut() {
            loop {
                if bit >= 80 {
                    return Err(PositionIdError::Truncated);
                }
                let set = key[bit / 8] & (1 << (bit % 8)) != 0;
                bit += 1;
                if !set {
                    break;
                }
                if *slot >= 15 {
                    // More than 15 on one point: report through the position error.
                    return Err(PositionError::TooManyCheckers {
                        side: Side::Player,
                        count: 16,
                    }
                    .into());
                }
                *slot += 1;
            }
        }
    }
    for b in bit..80 {
        if key[b / 8] & (1 << (b % 8)) != 0 {
            return Err(PositionIdError::Garbage);
        }
    }
    let [opponent, player] = sides;
    Ok(Position::from_sides(&player, &opponent)?)
}

/// Decodes a Position ID. Surrounding whitespace is ignored.
pub fn decode(id: &str) -> Result<Position, PositionIdError> {
    let id = id.trim();
    let len = id.chars().count();
    if len != POSITION_ID_LEN {
        return Err(PositionIdError::Length(len));
    }
    if let Some((index, ch)) = id
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '+' || *c == '/'))
    {
        return Err(PositionIdError::BadCharacter { ch, index });
    }
    let bytes = ENGINE
        .decode(id)
        .map_err(|_| PositionIdError::TrailingBits)?;
    let key: [u8; 10] = bytes.try_into().map_err(|_| PositionIdError::Length(len))?;
    from_key(&key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_example() {
        assert_eq!(encode(&Position::starting()), "4HPwATDgc/ABMA");
        assert_eq!(decode("4HPwATDgc/ABMA").unwrap(), Position::starting());
    }

    #[test]
    fn errors() {
        assert_eq!(decode("4HPwATDgc/ABM"), Err(PositionIdError::Length(13)));
        assert!(matches!(
            decode("4HPwATDgc/AB!A"),
            Err(PositionIdError::BadCharacter { ch: '!', index: 12 })
        ));
        assert_eq!(decode("4HPwATDgc/ABMB"), Err(PositionIdError::TrailingBits));
        assert!(matches!(
            decode("//////////////"),
            Err(PositionIdError::TrailingBits)
        ));
        assert!(decode("/////////////w").is_err());
        assert!(decode("AAAAAAAAAAAAAA").is_ok()); // both sides borne off completely
    }
}
