//! The players on the window's board: the board turned to the player on roll when two people
//! play (each player's checkers keep their colour as the board turns), and the names and
//! colours changed in the preferences reaching the match in progress at once.

use adw::subclass::prelude::*;
use cubeful_engine::Player;

use super::CubefulWindow;
use crate::board::Colours;
use crate::session::seat_names;
use crate::settings::Settings;

impl CubefulWindow {
    /// The board's colours as shown now: the preferences' colours of player 1 ("your
    /// checkers") and player 0, swapped while player 0 sits at the bottom.
    pub(super) fn board_colours(&self) -> Colours {
        let mut colours = self.settings().colours.colours();
        if self.imp().controller.borrow().bottom_player() == Player::Zero {
            colours.checkers.swap(0, 1);
        }
        colours
    }

    /// Gives the board the colours for the players' seats now (before each display).
    pub(super) fn seat_colours(&self) {
        self.imp().board.set_colours(self.board_colours());
    }

    /// Takes on the preference of turning the board (before the controller's preferences,
    /// which show the board again).
    pub(super) fn apply_turn_board(&self, settings: &Settings) {
        self.imp()
            .controller
            .borrow_mut()
            .set_turn_board(settings.turn_board);
    }

    /// The preferences changed from `before` to `after`: people of the match in progress who
    /// carried the names of the preferences take the new ones (the bot keeps its name). The
    /// board, status line, record and the file (which then counts as changed) follow.
    pub fn rename_people(&self, before: &Settings, after: &Settings) {
        let (old, new) = (people_names(before), people_names(after));
        if old != new {
            self.control(|c| c.rename_people(&old, &new));
            self.record_changed();
        }
    }
}

/// The names a new match gives the people for `settings` (`[you, the other person]`), as the
/// new-match dialog does: yours or the account's, the other person's or "Player 2".
pub fn people_names(settings: &Settings) -> [String; 2] {
    seat_names(&settings.player_name, &settings.opponent_name, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_a_new_match_would_give() {
        let mut s = Settings {
            player_name: " Anna ".into(),
            opponent_name: "Bert".into(),
            ..Settings::default()
        };
        assert_eq!(people_names(&s), ["Anna".to_string(), "Bert".to_string()]);
        s.player_name.clear();
        s.opponent_name.clear();
        assert_eq!(
            people_names(&s),
            [
                crate::session::default_player_name(),
                "Player 2".to_string()
            ]
        );
    }

    #[test]
    fn the_board_turns_unless_the_settings_say_otherwise() {
        // Settings written before the preference existed turn the board.
        let old: Settings = ron::from_str("(player_name: \"Anna\")").unwrap();
        assert!(old.turn_board);
        assert!(Settings::default().turn_board);
        let off: Settings = ron::from_str("(turn_board: false)").unwrap();
        assert!(!off.turn_board);
    }
}
