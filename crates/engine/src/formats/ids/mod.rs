//! Position and match identifiers: GNU Backgammon's Position ID, Match ID and the combined
//! GNUID, and eXtreme Gammon's XGID.

pub mod gnubg_id;
pub mod match_id;
pub mod position_id;
pub mod xgid;

use thiserror::Error;

use crate::game::match_state::MatchState;
use crate::rules::position::Position;

/// A position, and the match state when the text gave one, read from whatever identifier a
/// user typed or pasted.
pub type Identified = (Position, Option<MatchState>);

/// Why a text is none of the identifiers [`identify`] reads.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IdentifyError {
    /// Nothing but whitespace.
    #[error("there is no position ID to read")]
    Empty,
    /// It starts like an XGID but is not a valid one.
    #[error("this is not a valid XGID: {0}")]
    Xgid(#[from] xgid::XgidError),
    /// Neither a GNU Backgammon ID nor an XGID.
    #[error("this is not a Position ID, a GNU Backgammon ID or an XGID")]
    Unknown,
}

/// Reads a Position ID, a GNU Backgammon ID (`POSITIONID:MATCHID`, with the labels users paste
/// in front of it) or an XGID (with or without its `XGID=`), as found on a clipboard: the
/// position seen from the player on roll, and the match state unless only a Position ID was
/// given.
///
/// ```
/// use cubeful_engine::formats::ids::identify;
/// use cubeful_engine::Position;
///
/// let (position, state) = identify("4HPwATDgc/ABMA")?;
/// assert_eq!((position, state), (Position::starting(), None));
/// let (_, state) = identify("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10")?;
/// assert_eq!(state.map(|s| s.match_length), Some(5));
/// # Ok::<(), cubeful_engine::formats::ids::IdentifyError>(())
/// ```
pub fn identify(text: &str) -> Result<Identified, IdentifyError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(IdentifyError::Empty);
    }
    if text
        .get(..5)
        .is_some_and(|head| head.eq_ignore_ascii_case("XGID="))
    {
        let (position, state) = xgid::decode(text)?;
        return Ok((position, Some(state)));
    }
    if let Ok(found) = gnubg_id::decode_parts(text) {
        return Ok(found);
    }
    // An XGID without its label.
    match xgid::decode(text) {
        Ok((position, state)) => Ok((position, Some(state))),
        Err(_) => Err(IdentifyError::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;

    #[test]
    fn every_kind_of_identifier_is_read() {
        let start = Position::starting();
        assert_eq!(identify(" 4HPwATDgc/ABMA\n"), Ok((start, None)));
        let (p, s) = identify("GNUID=4HPwATDgc/ABMA:cAhvAAAAAAAE").unwrap();
        let s = s.unwrap();
        assert_eq!((p, s.match_length, s.on_roll), (start, 3, Player::One));
        assert_eq!(identify("4HPwATDgc/ABMA:cAhvAAAAAAAE").unwrap().1, Some(s));
        let xgid = xgid::encode(&start, &s);
        assert!(xgid.starts_with("XGID="));
        let (p, x) = identify(&xgid).unwrap();
        assert_eq!(p, start);
        assert_eq!(x, Some(xgid::representable(&s)));
        // Without its label, and with the label in lower case.
        assert_eq!(identify(&xgid[5..]).unwrap(), (p, x));
        assert_eq!(identify(&format!("xgid={}", &xgid[5..])).unwrap(), (p, x));
    }

    #[test]
    fn other_texts_say_what_they_are_not() {
        assert_eq!(identify("  \t"), Err(IdentifyError::Empty));
        assert_eq!(identify("hello world"), Err(IdentifyError::Unknown));
        assert_eq!(identify("4HPwATDgc/AB"), Err(IdentifyError::Unknown));
        assert!(matches!(
            identify("XGID=nonsense"),
            Err(IdentifyError::Xgid(_))
        ));
        // Long or hostile input is refused, not echoed.
        let long = "A".repeat(100_000);
        let e = identify(&long).unwrap_err();
        assert!(e.to_string().len() < 100, "{e}");
        let e = identify(&format!("XGID={long}")).unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
        assert!(identify("\0\u{7f}é:\u{fffd}").is_err());
    }
}
