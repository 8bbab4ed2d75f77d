//! The position argument of `eval`, `hint`, `rollout` and `temperature`: a GNU Backgammon ID
//! (Position ID, optionally `:Match ID`) or an eXtreme Gammon XGID, with or without its `XGID=`
//! label.

use anyhow::{Context, Result};
use cubeful_engine::formats::ids::xgid;
use cubeful_engine::{gnubg_id, MatchState, Position};

/// What the help of a position argument says.
pub const HELP: &str = "GNU Backgammon Position ID, optionally `:MATCH-ID` (without it: money \
game, cube centred), or an XGID";

/// Reads a position argument. A GNU Backgammon ID has at most one colon; an XGID has nine, so
/// the number of colons (or the `XGID=` label) tells them apart and each error speaks of the
/// kind the text is.
pub fn parse(text: &str) -> Result<(Position, MatchState)> {
    let text = text.trim();
    let labelled = text
        .get(..5)
        .is_some_and(|head| head.eq_ignore_ascii_case("XGID="));
    if labelled || text.matches(':').count() > 1 {
        xgid::decode(text).context("bad XGID")
    } else {
        gnubg_id::decode(text).context("bad GNU Backgammon ID")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_kinds_of_id_are_read() {
        let (start, money) = parse("4HPwATDgc/ABMA").unwrap();
        assert_eq!(start, Position::starting());
        assert_eq!(money, MatchState::money());
        // A game in progress (an XGID cannot say "no game yet", as the start of a match's
        // Match ID does).
        let (position, mut state) = parse("4HPwATDgc/ABMA:cAhvAAAAAAAE").unwrap();
        state.game_state = cubeful_engine::GameState::Playing;
        let gnubg = parse(&gnubg_id::encode(&position, &state)).unwrap();
        assert_eq!(gnubg.1.match_length, 3);
        let x = xgid::encode(&gnubg.0, &gnubg.1);
        assert_eq!(parse(&x).unwrap(), gnubg);
        let unlabelled = x.trim_start_matches("XGID=");
        assert_eq!(parse(unlabelled).unwrap(), gnubg);
    }

    #[test]
    fn errors_name_the_kind_of_id() {
        let e = format!("{:#}", parse("4HPwATDgc/AB").unwrap_err());
        assert!(e.starts_with("bad GNU Backgammon ID"), "{e}");
        let e = format!("{:#}", parse("XGID=-b----E-C---:0").unwrap_err());
        assert!(e.starts_with("bad XGID"), "{e}");
    }
}
