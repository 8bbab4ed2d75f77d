//! The combined GNU Backgammon ID ("GNUID"): `POSITIONID:MATCHID`, for example
//! `4HPwATDgc/ABMA:cAkAAAAAAAAA`, the form GNU Backgammon shows and copies for a position.
//!
//! The [`Position`] is oriented to the player on roll, [`MatchState::on_roll`] (the Match ID's
//! dice-owner bit), exactly as the Position ID is; players are numbered as in GNU Backgammon
//! (player 0 = O, player 1 = X).
//!
//! What [`decode`] accepts, around the strict `POSITIONID:MATCHID` core:
//! * surrounding whitespace, and whitespace instead of (or around) the `:`;
//! * a leading label as users paste it: `GNUID`, `GNUBGID` or `GNUbg ID` in any case, followed
//!   by `=`, `:` or whitespace (`GNUID=4HPwATDgc/ABMA:cAkAAAAAAAAA`, `GNUbg ID: …`);
//! * a lone Position ID (optionally followed by a bare `:`, as GNU Backgammon prints it when it
//!   has no Match ID). A Position ID alone does not say whose turn it is, so [`decode`] pairs
//!   it with [`MatchState::money`]: a money session, cube centred, player 1 (X) on roll and the
//!   dice not rolled. Use [`decode_parts`] to tell that case apart.
//!
//! The Position ID must come first, as GNU Backgammon writes it.

use thiserror::Error;

use crate::formats::ids::match_id::{self, MatchIdError};
use crate::formats::ids::position_id::{self, PositionIdError};
use crate::game::match_state::MatchState;
use crate::rules::position::Position;

/// Why a text is not a GNU Backgammon ID.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GnubgIdError {
    /// Nothing but whitespace (or only a label).
    #[error("the GNU Backgammon ID is empty")]
    Empty,
    /// An eXtreme Gammon ID was given where a GNU Backgammon ID was expected.
    #[error("this is an eXtreme Gammon XGID, not a GNU Backgammon ID")]
    Xgid,
    /// More than two parts.
    #[error("a GNU Backgammon ID is POSITIONID:MATCHID; found {0} parts")]
    TooManyParts(usize),
    /// The first part is not a valid Position ID.
    #[error("Position ID {}: {source}", crate::formats::quote(.text))]
    Position {
        text: String,
        #[source]
        source: PositionIdError,
    },
    /// The second part is not a valid Match ID.
    #[error("Match ID {}: {source}", crate::formats::quote(.text))]
    Match {
        text: String,
        #[source]
        source: MatchIdError,
    },
}

/// Labels users paste in front of the ID; compared without regard to ASCII case, and only
/// when followed by `=`, `:` or whitespace.
const LABELS: [&str; 3] = ["GNUBGID", "GNUbg ID", "GNUID"];

/// The combined ID `POSITIONID:MATCHID` of a position (oriented to `state.on_roll`) and its
/// match state.
pub fn encode(position: &Position, state: &MatchState) -> String {
    format!(
        "{}:{}",
        position_id::encode(position),
        match_id::encode(state)
    )
}

/// Removes a leading label and its separator, if any.
fn strip_label(s: &str) -> &str {
    for label in LABELS {
        let Some(head) = s.get(..label.len()) else {
            continue;
        };
        let rest = &s[label.len()..];
        // The label must be followed by a separator: a Position ID may itself begin with the
        // letters "gnuid".
        let separated = rest.is_empty()
            || rest.starts_with(|c: char| c == '=' || c == ':' || c.is_whitespace());
        if !head.eq_ignore_ascii_case(label) || !separated {
            continue;
        }
        let rest = rest.trim_start();
        let rest = rest
            .strip_prefix('=')
            .or_else(|| rest.strip_prefix(':'))
            .unwrap_or(rest);
        return rest.trim_start();
    }
    s
}

/// Decodes a combined ID into the position and, if present, the match state.
///
/// Returns `None` for the match state when the text holds a Position ID only.
pub fn decode_parts(s: &str) -> Result<(Position, Option<MatchState>), GnubgIdError> {
    let s = s.trim();
    if s.get(..5)
        .is_some_and(|head| head.eq_ignore_ascii_case("XGID="))
    {
        return Err(GnubgIdError::Xgid);
    }
    let s = strip_label(s);
    if s.is_empty() {
        return Err(GnubgIdError::Empty);
    }
    let parts: Vec<&str> = s
        .split(|c: char| c == ':' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    let (pos_text, match_text) = match parts.as_slice() {
        [p] => (*p, None),
        [p, m] => (*p, Some(*m)),
        _ => return Err(GnubgIdError::TooManyParts(parts.len())),
    };
    let position = position_id::decode(pos_text).map_err(|source| GnubgIdError::Position {
        text: pos_text.to_string(),
        source,
    })?;
    let state = match match_text {
        None => None,
        Some(m) => Some(match_id::decode(m).map_err(|source| GnubgIdError::Match {
            text: m.to_string(),
            source,
        })?),
    };
    Ok((position, state))
}

/// Decodes a combined ID `POSITIONID:MATCHID` (see the [module documentation](self) for the
/// tolerated variations). A lone Position ID yields [`MatchState::money`].
///
/// ```
/// use cubeful_engine::{gnubg_id, Player, Position};
///
/// let (position, state) = gnubg_id::decode("GNUID=4HPwATDgc/ABMA:cAhvAAAAAAAE")?;
/// assert_eq!(position, Position::starting());
/// assert_eq!((state.match_length, state.on_roll), (3, Player::One));
/// assert_eq!(gnubg_id::encode(&position, &state), "4HPwATDgc/ABMA:cAhvAAAAAAAE");
/// # Ok::<(), gnubg_id::GnubgIdError>(())
/// ```
pub fn decode(s: &str) -> Result<(Position, MatchState), GnubgIdError> {
    let (position, state) = decode_parts(s)?;
    Ok((position, state.unwrap_or_else(MatchState::money)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_of_a_match() {
        let (p, s) = decode("4HPwATDgc/ABMA:cAhvAAAAAAAE").unwrap();
        assert_eq!(p, Position::starting());
        assert_eq!(s.match_length, 3);
        assert_eq!(encode(&p, &s), "4HPwATDgc/ABMA:cAhvAAAAAAAE");
    }

    #[test]
    fn variations() {
        let want = decode("4HPwATDgc/ABMA:cAhvAAAAAAAE").unwrap();
        for text in [
            "  4HPwATDgc/ABMA:cAhvAAAAAAAE\n",
            "GNUID=4HPwATDgc/ABMA:cAhvAAAAAAAE",
            "gnubgid 4HPwATDgc/ABMA:cAhvAAAAAAAE",
            "GNUbg ID: 4HPwATDgc/ABMA : cAhvAAAAAAAE",
            "4HPwATDgc/ABMA cAhvAAAAAAAE",
        ] {
            assert_eq!(decode(text), Ok(want), "{text:?}");
        }
        assert_eq!(
            decode_parts("4HPwATDgc/ABMA:"),
            Ok((Position::starting(), None))
        );
        assert_eq!(
            decode("4HPwATDgc/ABMA"),
            Ok((Position::starting(), MatchState::money()))
        );
    }

    #[test]
    fn errors() {
        assert_eq!(decode("  "), Err(GnubgIdError::Empty));
        assert_eq!(decode("GNUID="), Err(GnubgIdError::Empty));
        assert_eq!(
            decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"),
            Err(GnubgIdError::Xgid)
        );
        assert_eq!(decode("a:b:c"), Err(GnubgIdError::TooManyParts(3)));
        assert!(matches!(
            decode("cAhvAAAAAAAE:4HPwATDgc/ABMA"),
            Err(GnubgIdError::Position { .. })
        ));
        assert!(matches!(
            decode("4HPwATDgc/ABMA:cAhvAAAAAAA"),
            Err(GnubgIdError::Match {
                source: MatchIdError::Length(11),
                ..
            })
        ));
    }
}
