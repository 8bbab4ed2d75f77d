//! The position on the board as text for the clipboard: GNU Backgammon's ASCII board, drawn
//! by the engine.

use cubeful_engine::formats::ascii_board;
use cubeful_engine::Player;

use super::Controller;

impl Controller {
    /// GNU Backgammon's ASCII board ([`ascii_board::draw`]) of the position on the board —
    /// the selected action's in review, the game's otherwise ([`Controller::shown_state`]) —
    /// with its match state and the players' names; `None` without a match.
    pub fn position_text(&self) -> Option<String> {
        let (position, state) = self.shown_state()?;
        let s = self.session.as_ref()?;
        Some(ascii_board::draw(
            &position,
            &state,
            [s.name(Player::Zero), s.name(Player::One)],
        ))
    }
}
