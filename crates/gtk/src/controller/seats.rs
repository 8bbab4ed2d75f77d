//! Who sits where and what they are called while a match is played: the board turned to the
//! player on roll when two people play at one board (a preference), and the names changed in
//! the preferences reaching the match in progress.

use cubeful_engine::Player;

use super::{Controller, Effect};

impl Controller {
    /// Turns the board to the player on roll when both players are people (`on`), in this
    /// match and the next ones; with a bot at the board the seats never change.
    pub fn set_turn_board(&mut self, on: bool) {
        self.turn_board = on;
        self.seat_players();
    }

    /// The preference of [`Controller::set_turn_board`].
    pub fn turns_board(&self) -> bool {
        self.turn_board
    }

    /// Seats the players of the match as the preference says (called whenever a match is
    /// taken on).
    pub(super) fn seat_players(&mut self) {
        let on = self.turn_board;
        if let Some(s) = self.session.as_mut() {
            s.set_turn_board(on);
        }
    }

    /// The player whose side the board shows at the bottom: the session's
    /// ([`crate::session::Session::bottom_player`]) for the live position, player 1 for an
    /// action in review and in edit mode (both show fixed seats) and with no match.
    pub fn bottom_player(&self) -> Player {
        match (&self.session, self.review) {
            (Some(s), None) if !self.is_editing() => s.bottom_player(),
            _ => Player::One,
        }
    }

    /// The names in the preferences changed from `old` to `new` (each `[you, the other
    /// person]`): the people of the match in progress who carried the old names take the new
    /// ones ([`crate::session::Session::rename_people`]); the bot keeps its name. The board,
    /// the status, the record and the file then show the new names.
    pub fn rename_people(&mut self, old: &[String; 2], new: &[String; 2]) -> Vec<Effect> {
        let renamed = self
            .session
            .as_mut()
            .is_some_and(|s| s.rename_people(old, new));
        if renamed {
            // The record pane's columns carry the names.
            self.record_version += 1;
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::path::PathBuf;

    use cubeful_engine::formats::match_file::MatchFormat;
    use cubeful_engine::game::Decision;
    use cubeful_engine::rules::movegen::play_steps;
    use cubeful_engine::search::Level;
    use cubeful_engine::{legal_moves, Dice, MatchState, Player, Position};

    use super::*;
    use crate::board::model::bottom_view;
    use crate::board::{Action, BoardModel, Geometry, Seat, Slot};
    use crate::controller::Preferences;
    use crate::document::{record_to_save, Document};
    use crate::session::{MatchSetup, Opponent, Session};

    fn controller(turn_board: bool) -> Controller {
        let mut c = Controller::new(Preferences {
            animate: false,
            ..Preferences::default()
        });
        c.set_turn_board(turn_board);
        c
    }

    fn setup(opponent: Opponent, seed: u64) -> MatchSetup {
        MatchSetup {
            length: 5,
            opponent,
            names: ["Ann".into(), "Bob".into()],
            seed: Some(seed),
            ..MatchSetup::default()
        }
    }

    /// The person on roll drags one checker on the board the controller shows (the first step
    /// of the engine's first legal play), checks it moved that player's checker, then plays the
    /// whole play. Returns the seat the mover had on the board.
    fn drag_and_play(c: &mut Controller) -> Seat {
        let s = c.session().unwrap();
        let Decision::Move { player, dice } = s.game().decision() else {
            panic!("not a move: {:?}", s.game().decision());
        };
        let start = s.game().position();
        let play = legal_moves(&start, dice)[0];
        let d = c.display();
        let mut model = BoardModel::default();
        model.set_display(d.clone());
        let seat = model.moving_seat().expect("a person moves on the board");
        assert_eq!(d.turn, Some(seat));
        assert_eq!(d.dice.map(|(s, _)| s), Some(seat));
        assert_eq!(d.on_roll, Some(seat));
        assert_eq!(d.names[seat.index()], s.name(player));
        if let Some(&step) = play.mv.steps().first() {
            let geom = Geometry::new(855.0, 695.0);
            let from = Slot::from_mover(seat, step.from);
            let (fx, fy) = geom.checker(from, 0);
            let (tx, ty) = match Slot::from_mover(seat, step.to) {
                Slot::Point(p) => geom.point(p).centre(),
                Slot::Tray(t) => geom.tray(t).centre(),
                Slot::Bar(_) => unreachable!("no step ends on the bar"),
            };
            assert!(
                model.drag_begin(&geom, fx, fy),
                "{player:?} picks up at {from:?}"
            );
            assert_eq!(model.drag_end(&geom, tx, ty, true), Action::Changed);
            // The mover's checker moved: the board shows the position after that step.
            let after = play_steps(&start, &[step]).unwrap();
            assert_eq!(model.shown_position(), bottom_view(after, seat));
        }
        let fx = c.finish_move(&play);
        assert!(
            !fx.iter().any(|e| matches!(e, Effect::Toast(_))),
            "the play is accepted: {fx:?}"
        );
        seat
    }

    /// Plays `turns` turns of people (rolling by the controller, moving on the board) and
    /// returns, for each move, the mover and the seat it had.
    fn play_people(c: &mut Controller, turns: usize) -> Vec<(Player, Seat)> {
        let mut seen = Vec::new();
        for _ in 0..turns {
            let decision = c.session().unwrap().game().decision();
            match decision {
                Decision::Move { player, .. } => seen.push((player, drag_and_play(c))),
                Decision::Roll { player, .. } => {
                    let d = c.display();
                    let bottom = c.bottom_player();
                    assert_eq!(d.roll, Some(c.session().unwrap().seat_of(player)));
                    assert_eq!(
                        d.position,
                        match c.session().unwrap().game().on_roll() == bottom {
                            true => c.session().unwrap().game().position(),
                            false => c.session().unwrap().game().position().swap(),
                        }
                    );
                    c.roll();
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        seen
    }

    #[test]
    fn with_two_people_the_board_turns_to_the_player_on_roll() {
        let mut c = controller(true);
        assert!(c.turns_board());
        c.new_match(setup(Opponent::Human, 3));
        let seen = play_people(&mut c, 12);
        assert!(seen.len() >= 5);
        // Whoever moves sits at the bottom, and both did.
        assert!(
            seen.iter().all(|(_, seat)| *seat == Seat::Bottom),
            "{seen:?}"
        );
        let movers: HashSet<Player> = seen.iter().map(|(p, _)| *p).collect();
        assert_eq!(movers.len(), 2, "both players moved from the bottom");
        // Its names and scores follow the seats.
        let s = c.session().unwrap();
        let d = c.display();
        let bottom = c.bottom_player();
        assert_eq!(bottom, s.game().on_roll());
        assert_eq!(
            d.names,
            [
                s.name(bottom).to_string(),
                s.name(bottom.other()).to_string()
            ]
        );
        // Turned off in the middle of the game: the fixed seats again, player 1 at the bottom.
        c.set_turn_board(false);
        assert_eq!(c.bottom_player(), Player::One);
        assert_eq!(c.display().names, ["Ann".to_string(), "Bob".to_string()]);
    }

    #[test]
    fn turned_off_the_seats_stay_fixed() {
        let mut c = controller(false);
        c.new_match(setup(Opponent::Human, 3));
        let seen = play_people(&mut c, 12);
        assert!(seen.len() >= 5);
        for (player, seat) in &seen {
            let fixed = if *player == Player::One {
                Seat::Bottom
            } else {
                Seat::Top
            };
            assert_eq!(*seat, fixed, "{seen:?}");
        }
        assert_eq!(c.bottom_player(), Player::One);
    }

    #[test]
    fn a_forced_move_is_shown_from_the_seat_it_was_played_at() {
        // Player 0 (a person) on roll with one checker left on its 21 point: any roll is
        // forced, played by itself and shown checker by checker.
        let mut c = Controller::new(Preferences {
            animate: true,
            auto_forced_moves: true,
            ..Preferences::default()
        });
        c.set_turn_board(true);
        let mut mover = [0u8; 25];
        mover[20] = 1;
        let mut other = [0u8; 25];
        other[5] = 15;
        let position = Position::from_sides(&mover, &other).unwrap();
        let mut state = MatchState::money();
        state.on_roll = Player::Zero;
        state.turn = Player::Zero;
        let setup = MatchSetup {
            manual_dice: true,
            ..setup(Opponent::Human, 1)
        };
        c.resume(Session::from_position(setup, position, state).unwrap());
        // Player 0 on roll sits at the bottom.
        assert_eq!(c.bottom_player(), Player::Zero);
        assert_eq!(c.display().position, position);
        assert_eq!(split_dice(c.roll()), Some(Some("Bob".to_string())));
        let fx = c.dice_entered(Some(Dice::new(2, 1).unwrap()));
        let seat = fx.iter().find_map(|e| match e {
            Effect::Animate { seat, .. } => Some(*seat),
            _ => None,
        });
        // Shown where the board had the mover: at the bottom, although the board turns to
        // player 1 once the move is played.
        assert_eq!(seat, Some(Seat::Bottom), "{fx:?}");
        assert_eq!(c.bottom_player(), Player::One);
    }

    /// `Some(name)` if the effects ask for dice.
    fn split_dice(fx: Vec<Effect>) -> Option<Option<String>> {
        fx.into_iter().find_map(|e| match e {
            Effect::AskDice { name } => Some(name),
            _ => None,
        })
    }

    #[test]
    fn review_and_edit_mode_show_fixed_seats() {
        let mut c = controller(true);
        c.new_match(setup(Opponent::Human, 3));
        if c.bottom_player() == Player::One {
            drag_and_play(&mut c);
        }
        assert_eq!(c.bottom_player(), Player::Zero);
        // The record in review and the position being edited keep player 1 at the bottom.
        c.select(Some((0, 0)));
        assert!(c.is_reviewing());
        assert_eq!(c.bottom_player(), Player::One);
        c.select(None);
        assert_eq!(c.bottom_player(), Player::Zero);
        c.enter_edit();
        assert!(c.is_editing());
        assert_eq!(c.bottom_player(), Player::One);
        c.cancel_edit();
        assert_eq!(c.bottom_player(), Player::Zero);
    }

    #[test]
    fn with_the_bot_the_board_never_turns() {
        let mut c = controller(true);
        c.new_match(setup(Opponent::Bot(Level::Beginner), 4));
        // The match as the controller seated it, played on through the session (both sides'
        // first plays, the bot's too).
        let mut s = c.session().unwrap().clone();
        let mut on_roll = HashSet::new();
        for _ in 0..8 {
            on_roll.insert(s.game().on_roll());
            assert_eq!(s.bottom_player(), Player::One);
            assert_eq!(s.seat_of(Player::Zero), Seat::Top);
            assert_eq!(s.player_at(Seat::Bottom), Player::One);
            assert_eq!(
                s.display(false).names,
                ["Ann".to_string(), "Bob".to_string()]
            );
            match s.game().decision() {
                Decision::Move { player, dice } => {
                    let play = legal_moves(&s.game().position(), dice)[0];
                    s.act(player, cubeful_engine::game::Action::Move(play.mv))
                        .unwrap();
                }
                Decision::Roll { player, .. } => {
                    s.act(player, cubeful_engine::game::Action::Roll).unwrap();
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(on_roll.len(), 2, "both players were on roll");
        assert_eq!(c.bottom_player(), Player::One);
    }

    #[test]
    fn names_changed_in_the_preferences_reach_the_match() {
        let mut c = controller(true);
        c.new_match(setup(Opponent::Bot(Level::Beginner), 4));
        // The match is in a file: unchanged so far.
        let saved = record_to_save(c.session().unwrap());
        let doc = Document::in_file(PathBuf::from("/tmp/m.sgf"), MatchFormat::Sgf, saved);
        assert!(!doc.is_session_modified(c.session().unwrap()));
        let revision = c.record_revision();
        let old = ["Ann".to_string(), "Player 2".to_string()];
        let new = ["Anna".to_string(), "Zed".to_string()];
        assert!(c.rename_people(&old, &new).is_empty());
        let s = c.session().unwrap();
        // You take the new name; the bot keeps its own.
        assert_eq!(s.name(Player::One), "Anna");
        assert_eq!(s.name(Player::Zero), "Bob");
        assert_eq!(c.display().names[0], "Anna");
        assert!(c.subtitle().contains("Anna"));
        assert_ne!(c.record_revision(), revision, "the record pane shows it");
        // The file is out of date: it is saved with the new name.
        assert!(doc.is_session_modified(s));
        assert_eq!(record_to_save(s).info.players[1], "Anna");
        // A name that was not the preferences' (a match from a file) stays.
        c.rename_people(
            &["Eve".into(), "Player 2".into()],
            &["Eva".into(), "Zed".into()],
        );
        assert_eq!(c.session().unwrap().name(Player::One), "Anna");
    }

    #[test]
    fn two_people_both_take_their_new_names() {
        let mut c = controller(true);
        c.new_match(setup(Opponent::Human, 4));
        let old = ["Ann".to_string(), "Bob".to_string()];
        c.rename_people(&old, &["Ann".into(), "Robert".into()]);
        let s = c.session().unwrap();
        assert_eq!(s.name(Player::One), "Ann");
        assert_eq!(s.name(Player::Zero), "Robert");
        let status = s.status();
        let on_roll = s.name(s.game().on_roll()).to_string();
        assert!(status.contains(&on_roll), "{status}");
        // An emptied name is not taken (the window passes the default instead).
        c.rename_people(
            &["Ann".into(), "Robert".into()],
            &["".into(), "Robert".into()],
        );
        assert_eq!(c.session().unwrap().name(Player::One), "Ann");
    }
}
