//! Edit mode through the controller: entering, editing, refusing an impossible position,
//! playing on from a set-up (in the record of the game in progress, or as a new session), and
//! cancelling.

use cubeful_engine::game::record::RecordAction;
use cubeful_engine::{position_id, Dice, Player, Position};

use super::super::{Controller, Effect, MoveProgress, Preferences, State};
use super::EditPlay;
use crate::board::{Seat, Slot};
use crate::edit::EditOp;
use crate::session::{MatchSetup, Opponent};

const PLAIN: Preferences = Preferences {
    animate: false,
    auto_forced_moves: false,
    auto_next_game: false,
};

fn two_people(length: u16) -> Controller {
    let mut c = Controller::new(PLAIN);
    c.new_match(MatchSetup {
        length,
        opponent: Opponent::Human,
        names: ["Ann".into(), "Ben".into()],
        seed: Some(5),
        ..MatchSetup::default()
    });
    c
}

fn click(c: &mut Controller, p: u8, seat: Seat, n: u8) {
    c.edit(EditOp::Click {
        slot: Slot::Point(p),
        seat,
        n,
        tip: 5,
    });
}

/// Ann (bottom, player 1) with two checkers on her 1 and 2 points, Ben with one on his 1.
/// Ann on roll.
fn race(c: &mut Controller) -> Position {
    c.edit(EditOp::Clear);
    c.edit(EditOp::Turn(Seat::Bottom));
    click(c, 1, Seat::Bottom, 2);
    click(c, 2, Seat::Bottom, 2);
    click(c, 24, Seat::Top, 1);
    let mut ann = [0u8; 25];
    ann[0] = 2;
    ann[1] = 2;
    let mut ben = [0u8; 25];
    ben[0] = 1;
    Position::from_sides(&ann, &ben).unwrap()
}

#[test]
fn the_draft_is_shown_and_the_flow_waits() {
    let mut c = two_people(5);
    let before = c.display();
    assert!(c.enter_edit().is_empty());
    assert!(c.is_editing());
    assert_eq!(c.display().position, before.position);
    assert!(!c.controls(MoveProgress::default()).buttons.roll);
    assert!(c.status(MoveProgress::default()).starts_with("Editing"));
    let expected = race(&mut c);
    let (shown, state) = c.shown_state().unwrap();
    assert_eq!(position_id::encode(&shown), position_id::encode(&expected));
    assert_eq!(state.match_length, 5);
    // Sixteen checkers: nothing to show in the IDs, a sentence, no play.
    click(&mut c, 10, Seat::Bottom, 5);
    click(&mut c, 11, Seat::Bottom, 5);
    click(&mut c, 12, Seat::Bottom, 2);
    assert_eq!(c.draft().unwrap().on_board(Seat::Bottom), 16);
    assert!(c.shown_state().is_none());
    let fx = c.play_edited();
    assert!(
        matches!(&fx[..], [Effect::Toast(t)] if t.contains("16 checkers")),
        "{fx:?}"
    );
    assert!(c.is_editing());
    // Cancel: the match as it was.
    c.cancel_edit();
    assert!(!c.is_editing());
    assert_eq!(c.display(), before);
}

#[test]
fn playing_on_in_the_same_game_records_the_set_up() {
    let mut c = two_people(5);
    let games = c.session().unwrap().game().record().games.len();
    c.enter_edit();
    let expected = race(&mut c);
    c.edit(EditOp::Dice(Some((Seat::Bottom, Dice::new(2, 1).unwrap()))));
    let plan = c.plan_edit_play().unwrap();
    assert!(matches!(plan, EditPlay::SetUp(_)), "{plan:?}");
    c.play_from_edit(plan);
    assert!(!c.is_editing());
    let s = c.session().unwrap();
    let g = s.game();
    assert_eq!(g.position(), expected);
    assert_eq!(g.on_roll(), Player::One);
    assert_eq!(g.dice(), Some(Dice::new(2, 1).unwrap()));
    assert_eq!(g.record().games.len(), games);
    let last = g.record().games.last().unwrap().entries.last().unwrap();
    assert!(
        matches!(&last.action, RecordAction::SetUp(set) if set.position == expected),
        "{last:?}"
    );
    assert_eq!(c.state(), State::HumanToAct);
}

#[test]
fn another_score_starts_a_new_session_from_the_set_up() {
    let mut c = two_people(5);
    c.enter_edit();
    let expected = race(&mut c);
    c.edit(EditOp::Length(7));
    c.edit(EditOp::Score {
        seat: Seat::Top,
        score: 6,
    });
    c.edit(EditOp::Turn(Seat::Top));
    let plan = c.plan_edit_play().unwrap();
    assert!(matches!(plan, EditPlay::NewSession(_)));
    c.play_from_edit(plan);
    let s = c.session().unwrap();
    let g = s.game();
    assert_eq!(g.match_state().match_length, 7);
    assert_eq!(g.score(), [6, 0], "Ben is player 0");
    assert_eq!(g.on_roll(), Player::Zero);
    assert_eq!(g.position(), expected.swap());
    assert_eq!(s.setup().names, ["Ann".to_string(), "Ben".to_string()]);
    let first = &g.record().games[0];
    assert!(
        first.entries.iter().any(
            |e| matches!(&e.action, RecordAction::SetUp(set) if set.position == expected.swap())
        ),
        "{first:?}"
    );
}

#[test]
fn no_edit_while_the_bot_thinks_and_from_no_match() {
    let mut c = Controller::new(PLAIN);
    assert!(c.enter_edit().is_empty());
    assert_eq!(c.draft().unwrap().side(Seat::Bottom)[5], 5);
    let plan = c.plan_edit_play().unwrap();
    assert!(matches!(plan, EditPlay::NewSession(_)));
    c.cancel_edit();
    c.new_match(MatchSetup {
        length: 3,
        opponent: Opponent::Bot(cubeful_engine::search::Level::Beginner),
        seed: Some(2),
        ..MatchSetup::default()
    });
    if c.is_busy() {
        let fx = c.enter_edit();
        assert!(matches!(&fx[..], [Effect::Toast(_)]));
        assert!(!c.is_editing());
    }
}

#[test]
fn an_id_pasted_while_editing_sets_the_draft() {
    let mut c = two_people(5);
    c.enter_edit();
    let expected = race(&mut c);
    let id = position_id::encode(&expected);
    c.edit(EditOp::Starting);
    c.edit(EditOp::Turn(Seat::Bottom));
    c.paste_into_draft(&id).unwrap();
    assert_eq!(c.shown_state().unwrap().0, expected);
    assert!(c.paste_into_draft("not an id").is_err());
    assert_eq!(c.shown_state().unwrap().0, expected);
    // A GNU Backgammon ID brings its match state: the top player on roll at 2-1 of 5.
    let mut state = c.draft().unwrap().match_state();
    state.on_roll = Player::Zero;
    state.turn = Player::Zero;
    state.score = [2, 1];
    let gnubg = cubeful_engine::gnubg_id::encode(&expected, &state);
    c.paste_into_draft(&gnubg).unwrap();
    let d = c.draft().unwrap();
    assert_eq!((d.on_roll, d.score), (Seat::Top, [1, 2]));
    assert!(c.is_editing());
}

/// The hint window studies the draft while editing: a hint job for the draft's play once it
/// is valid and has dice, nothing while it is impossible.
#[test]
fn an_open_hint_studies_the_draft() {
    use crate::jobs::JobKind;
    use cubeful_engine::analysis::hint::Question;
    use cubeful_engine::search::Level;
    let hint_query = |fx: &[Effect]| {
        fx.iter().find_map(|e| match e {
            Effect::Submit(job) => match &job.kind {
                JobKind::Hint { query, .. } => Some(*query),
                _ => None,
            },
            _ => None,
        })
    };
    let mut c = two_people(5);
    c.open_hint(Level::Beginner);
    c.enter_edit();
    let ann = race(&mut c);
    let dice = Dice::new(2, 1).unwrap();
    let fx = c
        .edit(EditOp::Dice(Some((Seat::Bottom, dice))))
        .expect("the dice changed");
    let query = hint_query(&fx).expect("a hint about the draft");
    assert_eq!(query.position, ann);
    assert_eq!(query.question, Question::Move(dice));
    // Sixteen checkers: no game can have them, so nothing is asked.
    let fx = c
        .edit(EditOp::Click {
            slot: Slot::Point(6),
            seat: Seat::Bottom,
            n: 15,
            tip: 5,
        })
        .expect("the draft changed");
    assert!(hint_query(&fx).is_none(), "{fx:?}");
    // Nothing of play while editing, but the hint may be opened.
    let controls = c.controls(MoveProgress::default());
    assert!(
        controls.hint && !controls.roll && !controls.double,
        "{controls:?}"
    );
    // A new match ends edit mode.
    c.new_match(MatchSetup {
        opponent: Opponent::Human,
        seed: Some(6),
        ..MatchSetup::default()
    });
    assert!(!c.is_editing());
}

fn is_ask_dice(e: &Effect) -> bool {
    matches!(e, Effect::AskDice { .. })
}

/// With manual dice, Roll (a click on the board, Ctrl+R) opens the dice dialog; while editing
/// it does nothing — the board's click on the dice cycles the draft's dice instead — and after
/// editing Roll asks again.
#[test]
fn no_dice_dialog_while_editing_with_manual_dice() {
    let mut c = Controller::new(PLAIN);
    let fx = c.new_match(MatchSetup {
        length: 5,
        opponent: Opponent::Human,
        names: ["Ann".into(), "Ben".into()],
        seed: Some(5),
        manual_dice: true,
        ..MatchSetup::default()
    });
    assert!(fx.iter().any(is_ask_dice), "{fx:?}");
    // The opening roll's dialog cancelled: Roll would ask again.
    c.dice_entered(None);
    let waiting = State::EnterDice {
        player: None,
        asking: false,
    };
    assert_eq!(c.state(), waiting);
    assert!(c.enter_edit().is_empty());
    let fx = c.roll();
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(c.state(), waiting, "nothing asked, nothing rolled");
    // The dice of edit mode: a click on a half's dice area, as the board reports it.
    let fx = c
        .edit(EditOp::CycleDice {
            seat: Seat::Top,
            first: true,
        })
        .expect("the draft's dice changed");
    assert!(!fx.iter().any(is_ask_dice), "{fx:?}");
    let d = c.draft().unwrap();
    assert_eq!((d.on_roll, d.dice), (Seat::Top, Dice::new(1, 1).ok()));
    assert!(!c.controls(MoveProgress::default()).roll);
    c.cancel_edit();
    assert!(matches!(&c.roll()[..], [Effect::AskDice { name: None }]));
}

/// A roll held by the tutor (the person could have doubled) is withdrawn when the position is
/// edited meanwhile: the tutor's late answer commits nothing and opens no dice dialog, and the
/// person rolls again once the editing is over.
#[test]
fn an_action_the_tutor_judges_is_withdrawn_on_entering_edit_mode() {
    use crate::controller::tests::Worker;
    use crate::controller::tutor::TutorSettings;
    use crate::jobs::JobKind;
    use cubeful_engine::game::record::analysis::Skill;
    use cubeful_engine::game::Decision;
    use cubeful_engine::search::Level;
    use cubeful_engine::{xgid, MatchState};

    let mut c = Controller::new(PLAIN);
    c.set_tutor(TutorSettings {
        on: true,
        level: Level::Beginner,
        threshold: Skill::VeryBad,
    });
    c.new_match(MatchSetup {
        length: 0,
        opponent: Opponent::Bot(Level::Beginner),
        names: ["Ann".into(), "Bot".into()],
        seed: Some(1),
        manual_dice: true,
        ..MatchSetup::default()
    });
    // Ann (player 1) to roll from the starting position, the cube in the middle.
    let mut state = MatchState::money();
    state.on_roll = Player::One;
    state.turn = Player::One;
    let fx = c.paste_position(&xgid::encode(&Position::starting(), &state));
    assert!(!fx.iter().any(is_ask_dice), "{fx:?}");
    assert_eq!(c.state(), State::HumanToAct);
    assert!(matches!(
        c.session().unwrap().game().decision(),
        Decision::Roll {
            player: Player::One,
            may_double: true
        }
    ));
    assert!(c.session().unwrap().setup().manual_dice);
    // Roll: the tutor judges it first.
    let job = c
        .roll()
        .into_iter()
        .find_map(|e| match e {
            Effect::Submit(job) if matches!(job.kind, JobKind::Hint { .. }) => Some(job),
            _ => None,
        })
        .expect("the tutor's job");
    assert!(matches!(c.state(), State::Tutoring { .. }));
    // The position is edited meanwhile: the roll is withdrawn, and the tutor's answer (it
    // would let the roll through) changes nothing.
    assert!(c.enter_edit().is_empty());
    assert_eq!(c.tutor_job(), None);
    assert_eq!(c.state(), State::HumanToAct);
    let fx = c.reply(Worker::new().run(job));
    assert!(!fx.iter().any(is_ask_dice), "{fx:?}");
    assert_eq!(c.state(), State::HumanToAct);
    assert!(c.is_editing());
    assert!(matches!(
        c.session().unwrap().game().decision(),
        Decision::Roll {
            player: Player::One,
            may_double: true
        }
    ));
    // Done editing: Ann rolls again and is asked for her dice.
    c.cancel_edit();
    c.set_tutor(TutorSettings {
        on: false,
        level: Level::Beginner,
        threshold: Skill::VeryBad,
    });
    assert!(matches!(&c.roll()[..], [Effect::AskDice { name: Some(n) }] if n == "Ann"));
}
