//! GNU Backgammon's Match ID: 12 characters of Base64 for the 9-byte key of a [`MatchState`].
//!
//! The key holds 67 meaningful bits, packed least significant first (bit `n` is bit `n % 8` of
//! byte `n / 8`) and written in standard Base64 (`A-Z a-z 0-9 + /`; 9 bytes need no padding):
//!
//! | bits    | field                                                              |
//! |---------|--------------------------------------------------------------------|
//! | 0–3     | log2 of the cube value                                             |
//! | 4–5     | cube owner: 0 = player 0, 1 = player 1, 3 = centred                |
//! | 6       | player on roll (dice owner, gnubg `fMove`)                         |
//! | 7       | this game is the Crawford game                                     |
//! | 8–10    | game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped       |
//! | 11      | player to act (gnubg `fTurn`)                                      |
//! | 12      | a double is pending                                                |
//! | 13–14   | resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon      |
//! | 15–17   | first die (0 = not rolled)                                         |
//! | 18–20   | second die                                                         |
//! | 21–35   | match length (0 = money session)                                   |
//! | 36–50   | score of player 0                                                  |
//! | 51–65   | score of player 1                                                  |
//! | 66      | 1 when the Jacoby rule is **not** in use                           |
//!
//! Players are numbered as GNU Backgammon numbers them: player 0 is O (top), player 1 is X
//! (bottom). The Match ID says nothing about the checkers; the Position ID that goes with it is
//! oriented to the player on roll (bit 6), also while a double is pending.
//!
//! [`decode`] accepts everything GNU Backgammon prints, including states it prints although
//! they look odd (game state 0 with the dice already rolled, for the first move of a game) and
//! the die order other programs write (BGBlitz puts the smaller die first); the dice are kept in
//! the order written so that [`encode`] reproduces the identical string. It rejects codes no
//! program writes: cube owner 2, game states 5 to 7, a die of 7, one die rolled and the other
//! not, a score above the match length, a Crawford game in money play (GNU Backgammon rejects
//! those two as well) and set bits after bit 66.

use thiserror::Error;

use crate::game::match_state::{CubeOwner, GameState, MatchState, Player, Resignation};
use crate::rules::dice::Dice;

/// Length of a Match ID in characters.
pub const MATCH_ID_LEN: usize = 12;

/// Number of bytes in the key a Match ID encodes.
pub const MATCH_KEY_LEN: usize = 9;

/// Number of meaningful bits in the key (bits 0 to 66).
const KEY_BITS: u32 = 67;

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Why a text is not a valid Match ID.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MatchIdError {
    /// The text does not have 12 characters (after trimming surrounding whitespace).
    #[error("a Match ID has 12 characters, this one has {0}")]
    Length(usize),
    /// A character outside the Base64 alphabet.
    #[error("character {ch:?} at position {index} is not Base64 (A-Z, a-z, 0-9, +, /)")]
    BadCharacter { ch: char, index: usize },
    /// Bits 4–5 hold 2.
    #[error("cube owner code {0} in bits 4-5 is not 0 (player 0), 1 (player 1) or 3 (centred)")]
    CubeOwner(u8),
    /// Bits 8–10 hold 5, 6 or 7.
    #[error(
        "game state code {0} in bits 8-10 is not 0 (no game), 1 (playing), 2 (over), \
         3 (resigned) or 4 (dropped)"
    )]
    GameState(u8),
    /// A die field holds 7.
    #[error(
        "die {die} (bits {bits}) is {value}; a die shows 1 to 6 (both dice are 0 before the roll)"
    )]
    DieValue {
        /// 1 or 2: which of the two dice fields.
        die: u8,
        /// The bit range of that field, for the message.
        bits: &'static str,
        value: u8,
    },
    /// One die is 0 (not rolled) and the other is not.
    #[error(
        "the dice are {first} and {second}: either both are 0 (not rolled yet) or both are 1 to 6"
    )]
    OneDieMissing { first: u8, second: u8 },
    /// A score above the match length.
    #[error(
        "the score of player {} ({player}) is {score}, more than the match length {length}",
        player.index()
    )]
    ScoreBeyondMatch {
        player: Player,
        score: u16,
        length: u16,
    },
    /// The Crawford bit is set in a money session.
    #[error("the Crawford bit (bit 7) is set, but a money session (match length 0) has no Crawford game")]
    CrawfordInMoney,
    /// Some of the unused bits 67–71 are set.
    #[error("bits after bit 66 are set (the last character carries bits no Match ID uses)")]
    TrailingBits,
}

/// A bit field of the key: `width` bits starting at bit `offset`.
#[derive(Clone, Copy)]
struct Field {
    offset: u32,
    width: u32,
}

impl Field {
    const fn new(offset: u32, width: u32) -> Field {
        Field { offset, width }
    }

    fn mask(self) -> u128 {
        (1u128 << self.width) - 1
    }

    fn get(self, key: u128) -> u16 {
        // Fields are at most 15 bits wide, so the value always fits.
        ((key >> self.offset) & self.mask()) as u16
    }

    fn put(self, key: &mut u128, value: u32) {
        *key |= (u128::from(value) & self.mask()) << self.offset;
    }
}

const CUBE: Field = Field::new(0, 4);
const CUBE_OWNER: Field = Field::new(4, 2);
const ON_ROLL: Field = Field::new(6, 1);
const CRAWFORD: Field = Field::new(7, 1);
const GAME_STATE: Field = Field::new(8, 3);
const TURN: Field = Field::new(11, 1);
const DOUBLED: Field = Field::new(12, 1);
const RESIGNED: Field = Field::new(13, 2);
const DIE1: Field = Field::new(15, 3);
const DIE2: Field = Field::new(18, 3);
const MATCH_LENGTH: Field = Field::new(21, 15);
const SCORE0: Field = Field::new(36, 15);
const SCORE1: Field = Field::new(51, 15);
const NO_JACOBY: Field = Field::new(66, 1);

fn cube_owner_code(owner: CubeOwner) -> u32 {
    match owner {
        CubeOwner::Owned(Player::Zero) => 0,
        CubeOwner::Owned(Player::One) => 1,
        CubeOwner::Centered => 3,
    }
}

fn player_bit(player: Player) -> u32 {
    player.index() as u32
}

fn player_from_bit(bit: u16) -> Player {
    if bit == 0 {
        Player::Zero
    } else {
        Player::One
    }
}

/// The 9-byte key of `state`, as GNU Backgammon builds it.
///
/// Values wider than their field (a cube above 2^15, a match length or score above 32767) are
/// cut to the field's low bits, as GNU Backgammon does; every state [`from_key`] returns fits.
/// The dice are stored in the order of [`Dice::first`] and [`Dice::second`] (GNU Backgammon
/// itself always writes the larger die first; see [`Dice::normalized`]).
pub fn match_key(state: &MatchState) -> [u8; MATCH_KEY_LEN] {
    let mut key = 0u128;
    CUBE.put(&mut key, u32::from(state.cube_log2));
    CUBE_OWNER.put(&mut key, cube_owner_code(state.cube_owner));
    ON_ROLL.put(&mut key, player_bit(state.on_roll));
    CRAWFORD.put(&mut key, u32::from(state.crawford));
    GAME_STATE.put(&mut key, state.game_state as u32);
    TURN.put(&mut key, player_bit(state.turn));
    DOUBLED.put(&mut key, u32::from(state.doubled));
    RESIGNED.put(&mut key, state.resigned.map_or(0, |r| r as u32));
    let (first, second) = state.dice.map_or((0, 0), |d| (d.first(), d.second()));
    DIE1.put(&mut key, u32::from(first));
    DIE2.put(&mut key, u32::from(second));
    MATCH_LENGTH.put(&mut key, u32::from(state.match_length));
    SCORE0.put(&mut key, u32::from(state.score[0]));
    SCORE1.put(&mut key, u32::from(state.score[1]));
    NO_JACOBY.put(&mut key, u32::from(!state.jacoby));
    let bytes = key.to_le_bytes();
    let mut out = [0u8; MATCH_KEY_LEN];
    out.copy_from_slice(&bytes[..MATCH_KEY_LEN]);
    out
}

/// The Match ID of `state`: 12 Base64 characters, bit for bit as GNU Backgammon writes it.
///
/// `decode(&encode(&s)) == Ok(s)` for every state `s` that [`decode`] can return.
pub fn encode(state: &MatchState) -> String {
    let key = match_key(state);
    let mut out = String::with_capacity(MATCH_ID_LEN);
    for chunk in key.chunks(3) {
        let n = u32::from(chunk[0]) << 16 | u32::from(chunk[1]) << 8 | u32::from(chunk[2]);
        for shift in [18, 12, 6, 0] {
            out.push(char::from(BASE64[((n >> shift) & 0x3f) as usize]));
        }
    }
    out
}

/// The match state from its 9-byte key, validated as described in the [module
/// documentation](self).
pub fn from_key(key: &[u8; MATCH_KEY_LEN]) -> Result<MatchState, MatchIdError> {
    let mut bytes = [0u8; 16];
    bytes[..MATCH_KEY_LEN].copy_from_slice(key);
    let key = u128::from_le_bytes(bytes);
    if key >> KEY_BITS != 0 {
        return Err(MatchIdError::TrailingBits);
    }

    let cube_owner = match CUBE_OWNER.get(key) {
        0 => CubeOwner::Owned(Player::Zero),
        1 => CubeOwner::Owned(Player::One),
        3 => CubeOwner::Centered,
        code => return Err(MatchIdError::CubeOwner(code as u8)),
    };
    let game_state_code = GAME_STATE.get(key) as u8;
    let game_state =
        GameState::from_code(game_state_code).ok_or(MatchIdError::GameState(game_state_code))?;
    // Two bits always hold a valid resignation code; fall back to "none" rather than panic.
    let resigned = Resignation::from_code(RESIGNED.get(key) as u8).unwrap_or(None);

    let first = DIE1.get(key) as u8;
    let second = DIE2.get(key) as u8;
    for (die, bits, value) in [(1, "15-17", first), (2, "18-20", second)] {
        if value > 6 {
            return Err(MatchIdError::DieValue { die, bits, value });
        }
    }
    let dice = match (first, second) {
        (0, 0) => None,
        (0, _) | (_, 0) => return Err(MatchIdError::OneDieMissing { first, second }),
        _ => Some(
            Dice::new(first, second).map_err(|_| MatchIdError::OneDieMissing { first, second })?,
        ),
    };

    let match_length = MATCH_LENGTH.get(key);
    let score = [SCORE0.get(key), SCORE1.get(key)];
    let crawford = CRAWFORD.get(key) == 1;
    if match_length == 0 {
        if crawford {
            return Err(MatchIdError::CrawfordInMoney);
        }
    } else {
        for player in [Player::Zero, Player::One] {
            let s = score[player.index()];
            if s > match_length {
                return Err(MatchIdError::ScoreBeyondMatch {
                    player,
                    score: s,
                    length: match_length,
                });
            }
        }
    }

    Ok(MatchState {
        cube_log2: CUBE.get(key) as u8,
        cube_owner,
        on_roll: player_from_bit(ON_ROLL.get(key)),
        crawford,
        game_state,
        turn: player_from_bit(TURN.get(key)),
        doubled: DOUBLED.get(key) == 1,
        resigned,
        dice,
        match_length,
        score,
        jacoby: NO_JACOBY.get(key) == 0,
    })
}

fn base64_value(ch: char) -> Option<u8> {
    Some(match ch {
        'A'..='Z' => ch as u8 - b'A',
        'a'..='z' => ch as u8 - b'a' + 26,
        '0'..='9' => ch as u8 - b'0' + 52,
        '+' => 62,
        '/' => 63,
        _ => return None,
    })
}

/// Decodes a Match ID. Surrounding whitespace is ignored; errors name the offending character
/// or bit field.
///
/// ```
/// use cubeful_engine::{match_id, CubeOwner, Dice, Player};
///
/// // The manual's example: 9-point match, score 2-4, player 0 owns the 2-cube, player 1 has
/// // rolled 5-2.
/// let state = match_id::decode("QYkqASAAIAAA")?;
/// assert_eq!((state.match_length, state.score), (9, [2, 4]));
/// assert_eq!(state.cube_owner, CubeOwner::Owned(Player::Zero));
/// assert_eq!(state.on_roll, Player::One);
/// assert_eq!(state.dice, Some(Dice::new(5, 2)?));
/// assert_eq!(match_id::encode(&state), "QYkqASAAIAAA");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn decode(id: &str) -> Result<MatchState, MatchIdError> {
    let id = id.trim();
    let len = id.chars().count();
    if len != MATCH_ID_LEN {
        return Err(MatchIdError::Length(len));
    }
    let mut sextets = [0u8; MATCH_ID_LEN];
    for (index, ch) in id.chars().enumerate() {
        sextets[index] = base64_value(ch).ok_or(MatchIdError::BadCharacter { ch, index })?;
    }
    let mut key = [0u8; MATCH_KEY_LEN];
    for (group, out) in sextets.chunks(4).zip(key.chunks_mut(3)) {
        let n = group.iter().fold(0u32, |acc, &s| acc << 6 | u32::from(s));
        out[0] = (n >> 16) as u8;
        out[1] = (n >> 8) as u8;
        out[2] = n as u8;
    }
    from_key(&key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_example() {
        let s = decode("QYkqASAAIAAA").unwrap();
        assert_eq!(s.match_length, 9);
        assert_eq!(s.score, [2, 4]);
        assert_eq!(s.cube_value(), 2);
        assert_eq!(s.cube_owner, CubeOwner::Owned(Player::Zero));
        assert_eq!(s.on_roll, Player::One);
        assert_eq!(s.turn, Player::One);
        assert_eq!(s.dice, Some(Dice::new(5, 2).unwrap()));
        assert_eq!(s.game_state, GameState::Playing);
        assert!(s.jacoby);
        assert_eq!(encode(&s), "QYkqASAAIAAA");
    }

    #[test]
    fn defaults() {
        // A fresh money session: cube centred, X on roll, no Jacoby.
        let s = MatchState::money();
        assert_eq!(decode(&encode(&s)), Ok(s));
    }

    #[test]
    fn errors() {
        assert_eq!(decode("QYkqASAAIAA"), Err(MatchIdError::Length(11)));
        assert_eq!(
            decode("QYkqASAAIA!A"),
            Err(MatchIdError::BadCharacter { ch: '!', index: 10 })
        );
        // Cube owner code 2: byte 0 = 0b0010_0001.
        assert_eq!(decode("IYkqASAAIAAA"), Err(MatchIdError::CubeOwner(2)));
        // Bit 67 is the 8 of the last character.
        assert_eq!(decode("QYkqASAAIAAI"), Err(MatchIdError::TrailingBits));
        // Bit 64 belongs to player 1's score: 4 + 2^13.
        assert_eq!(
            decode("QYkqASAAIAAB"),
            Err(MatchIdError::ScoreBeyondMatch {
                player: Player::One,
                score: 8196,
                length: 9
            })
        );
    }
}
