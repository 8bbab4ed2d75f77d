//! Tests of the game state machine: whole games and matches with fixed dice, the cube and its
//! restrictions, scoring, resignations, and refusals that leave the game unchanged.

use std::sync::Arc;

use super::*;
use crate::analysis::bot::{self, Bot};
use crate::eval::Nets;
use crate::formats::ids::gnubg_id;
use crate::rules::moves::Step;
use crate::search::{Level, Search};

const O: Player = Player::Zero;
const X: Player = Player::One;

fn dice(s: &str) -> Dice {
    s.parse().unwrap()
}

fn scripted(rolls: &str) -> Box<dyn DiceSource> {
    Box::new(ScriptedDice::parse(rolls).unwrap())
}

/// Everything observable about a game, to check that refused commands change nothing.
#[derive(Debug, PartialEq)]
struct Snapshot {
    position: Position,
    state: MatchState,
    decision: Decision,
    games: Vec<GameLog>,
    record: MatchRecord,
    rules: Rules,
}

fn snapshot(g: &Game) -> Snapshot {
    Snapshot {
        position: g.position(),
        state: g.match_state(),
        decision: g.decision(),
        games: g.games().to_vec(),
        record: g.record().clone(),
        rules: g.rules().clone(),
    }
}

/// `f` must fail with `expected`, and leave `g` as it was.
#[track_caller]
fn refused(
    g: &mut Game,
    expected: GameError,
    f: impl FnOnce(&mut Game) -> Result<Vec<Event>, GameError>,
) {
    let before = snapshot(g);
    let result = f(g);
    assert_eq!(result, Err(expected));
    assert_eq!(snapshot(g), before, "a refused command changed the game");
}

/// A position from per-side arrays (index 0..=23 = own points 1..=24, 24 = bar).
fn sides(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
    Position::from_points(player, opponent).unwrap()
}

/// A state with `on_roll` on roll before rolling.
fn state_before_roll(rules: &Rules, on_roll: Player) -> MatchState {
    MatchState {
        on_roll,
        turn: on_roll,
        jacoby: rules.jacoby_applies(),
        ..MatchState::new_match(rules.match_length)
    }
}

/// Plays the game in progress to its end with the first legal move every turn, answering
/// doubles with `take` (or `drop` when `drop_doubles`), never doubling. Checks that the
/// checkers are conserved after every move.
fn play_out(g: &mut Game, drop_doubles: bool) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..10_000 {
        let events = match g.decision() {
            Decision::OpeningRoll => g.roll(O).unwrap(),
            Decision::Roll { player, .. } => g.roll(player).unwrap(),
            Decision::Move { player, .. } => {
                let mv = g.legal_moves()[0].mv;
                g.play(player, &mv).unwrap()
            }
            Decision::AnswerDouble { player, .. } if drop_doubles => g.drop_double(player).unwrap(),
            Decision::AnswerDouble { player, .. } => g.take(player).unwrap(),
            Decision::AnswerResignation { player, .. } => g.reject_resignation(player).unwrap(),
            Decision::NewGame | Decision::MatchOver { .. } => return all,
        };
        let p = g.position();
        for side in [Side::Player, Side::Opponent] {
            assert_eq!(p.on_board(side) + p.off(side), 15);
        }
        all.extend(events);
    }
    panic!("the game did not end");
}

#[test]
fn opening_roll_ties_are_thrown_again_and_the_higher_die_starts() {
    let mut g = Game::new(Rules::match_to(5), scripted("33 24")).unwrap();
    assert_eq!(g.decision(), Decision::NewGame);
    let events = g.new_game().unwrap();
    assert_eq!(
        events,
        vec![
            Event::GameStarted {
                number: 1,
                score: [0, 0],
                crawford: false
            },
            Event::OpeningTie { die: 3 },
            Event::OpeningRoll {
                dice: dice("24"),
                starter: X
            },
        ]
    );
    // X threw the 4: X plays 4-2 (larger die first).
    assert_eq!(
        g.decision(),
        Decision::Move {
            player: X,
            dice: dice("42")
        }
    );
    assert_eq!(g.on_roll(), X);
    assert_eq!(g.position(), Position::starting());
    let state = g.match_state();
    assert_eq!(state.dice, Some(dice("42")));
    assert_eq!(state.game_state, GameState::Playing);
    // The ID reads back to the same state.
    let (position, decoded) = gnubg_id::decode(&gnubg_id::encode(&g.position(), &state)).unwrap();
    assert_eq!((position, decoded), (g.position(), state));
}

#[test]
fn manual_dice_wait_for_the_roll() {
    let mut g = Game::new(Rules::money(), scripted("")).unwrap();
    let events = g.new_game().unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(g.decision(), Decision::OpeningRoll);
    refused(&mut g, GameError::NoDice, |g| g.roll(X));
    refused(&mut g, GameError::OpeningRollPending, |g| g.double(X));
    let events = g.roll_dice(O, dice("55")).unwrap();
    assert_eq!(events, vec![Event::OpeningTie { die: 5 }]);
    g.roll_dice(X, dice("61")).unwrap();
    assert_eq!(
        g.decision(),
        Decision::Move {
            player: O,
            dice: dice("61")
        }
    );
    g.play_text(O, "13/7 8/7").unwrap();
    refused(&mut g, GameError::NoDice, |g| g.roll(X));
    g.roll_dice(X, dice("43")).unwrap();
    assert_eq!(g.dice(), Some(dice("43")));
    // Manual dice may be corrected before moving.
    g.set_dice(dice("52")).unwrap();
    assert_eq!(g.dice(), Some(dice("52")));
}

#[test]
fn turns_alternate_and_moves_must_be_legal() {
    let mut g = Game::new(Rules::money(), scripted("31 52 64")).unwrap();
    g.new_game().unwrap();
    refused(
        &mut g,
        GameError::NotYourTurn {
            player: X,
            to_act: O,
        },
        |g| g.play_text(X, "8/5 6/5"),
    );
    refused(&mut g, GameError::AlreadyRolled, |g| g.roll(O));
    refused(&mut g, GameError::AlreadyRolled, |g| g.double(O));
    let illegal = g.play_text(O, "8/3");
    match illegal {
        Err(GameError::IllegalMove(_)) => {}
        other => panic!("{other:?}"),
    }
    assert!(illegal
        .unwrap_err()
        .to_string()
        .starts_with("that move is not legal: "));
    refused(&mut g, GameError::NotALegalMove { dice: dice("31") }, |g| {
        g.play(O, &Move::from_steps(&[Step { from: 24, to: 22 }]))
    });
    let events = g.play_text(O, "8/5 6/5").unwrap();
    match &events[..] {
        [Event::Moved {
            player: O, text, ..
        }] => assert_eq!(text, "8/5 6/5"),
        other => panic!("{other:?}"),
    }
    assert_eq!(g.on_roll(), X);
    assert_eq!(
        g.decision(),
        Decision::Roll {
            player: X,
            may_double: true
        }
    );
    refused(&mut g, GameError::MustRollFirst, |g| g.play_text(X, "13/8"));
    refused(
        &mut g,
        GameError::NotYourTurn {
            player: O,
            to_act: X,
        },
        |g| g.roll(O),
    );
    refused(&mut g, GameError::NoDoubleOffered, |g| g.take(O));
    refused(&mut g, GameError::NoResignationOffered, |g| {
        g.accept_resignation(O)
    });
    refused(&mut g, GameError::GameInProgress, |g| g.new_game());
    g.roll(X).unwrap();
    // Steps given one by one (a GUI's drag and drop), in either order.
    let steps = [Step { from: 13, to: 8 }, Step { from: 13, to: 11 }];
    g.play(X, &Move::from_steps(&steps)).unwrap();
    assert_eq!(g.on_roll(), O);
    g.roll(O).unwrap();
    assert_eq!(g.dice(), Some(dice("64")));
}

#[test]
fn a_roll_that_cannot_be_played_passes_the_turn() {
    // X (on roll) has a checker on the bar against O's closed board.
    let closed: Vec<(usize, u8)> = (1..=6).map(|p| (p, 2)).chain([(7, 3)]).collect();
    let position = sides(&[(25, 1), (6, 14)], &closed);
    let rules = Rules::money();
    let state = state_before_roll(&rules, X);
    let mut g = Game::from_position(rules, position, state, scripted("64")).unwrap();
    let events = g.roll(X).unwrap();
    assert_eq!(
        events,
        vec![
            Event::Rolled {
                player: X,
                dice: dice("64")
            },
            Event::CannotMove {
                player: X,
                dice: dice("64")
            }
        ]
    );
    assert_eq!(g.on_roll(), O);
    assert_eq!(g.position(), position.swap());
}

#[test]
fn full_games_with_fixed_dice_end_and_score() {
    for seed in 0..20 {
        let mut g = Game::new(Rules::money(), Box::new(RandomDice::new(seed))).unwrap();
        g.new_game().unwrap();
        let events = play_out(&mut g, false);
        let outcome = g.outcome().expect("the game is over");
        assert_eq!(events.last(), Some(&Event::GameOver(outcome)));
        assert!(matches!(outcome.ending, Ending::BearOff(_)));
        assert_eq!(u32::from(g.score()[outcome.winner.index()]), outcome.points);
        assert_eq!(g.score()[outcome.winner.other().index()], 0);
        assert_eq!(g.decision(), Decision::NewGame);
        refused(&mut g, GameError::GameOver, |g| g.roll(O));
        // The record holds the whole game.
        let record = g.current_record().unwrap();
        assert_eq!(record.outcome, Some(outcome));
        let moves = record
            .events
            .iter()
            .filter(|e| matches!(e, Event::Moved { .. } | Event::CannotMove { .. }))
            .count();
        assert!(moves > 10, "seed {seed}: {moves} moves");
        // The same seed plays the same game.
        let mut again = Game::new(Rules::money(), Box::new(RandomDice::new(seed))).unwrap();
        again.new_game().unwrap();
        play_out(&mut again, false);
        assert_eq!(again.games(), g.games());
    }
}

#[test]
fn every_state_of_a_game_survives_its_gnubg_id() {
    let mut g = Game::new(Rules::match_to(7), Box::new(RandomDice::new(3))).unwrap();
    g.new_game().unwrap();
    for _ in 0..200 {
        if !g.in_progress() {
            break;
        }
        let id = gnubg_id::encode(&g.position(), &g.match_state());
        let (position, state) = gnubg_id::decode(&id).unwrap();
        let copy = Game::from_position(g.rules().clone(), position, state, scripted("")).unwrap();
        assert_eq!(copy.match_state(), g.match_state(), "{id}");
        assert_eq!(copy.decision(), g.decision(), "{id}");
        match g.decision() {
            Decision::Roll { player, .. } => {
                if g.cube_value() == 1 && g.can_double(player).is_ok() {
                    g.double(player).unwrap();
                } else {
                    g.roll(player).unwrap();
                }
            }
            Decision::AnswerDouble { player, .. } => {
                g.take(player).unwrap();
            }
            Decision::Move { player, .. } => {
                let mv = g.legal_moves()[0].mv;
                g.play(player, &mv).unwrap();
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn doubles_take_and_drop() {
    let mut g = Game::new(Rules::money(), scripted("31 52 64 11")).unwrap();
    g.new_game().unwrap();
    g.play_text(O, "8/5 6/5").unwrap();
    // X doubles; O takes and owns the cube at 2.
    assert_eq!(
        g.double(X).unwrap(),
        vec![Event::Doubled { player: X, cube: 2 }]
    );
    assert_eq!(
        g.decision(),
        Decision::AnswerDouble {
            player: O,
            cube: 2,
            may_beaver: true
        }
    );
    let state = g.match_state();
    assert!(state.doubled);
    assert_eq!((state.turn, state.on_roll, state.cube_log2), (O, X, 0));
    refused(&mut g, GameError::DoublePending, |g| g.roll(X));
    refused(
        &mut g,
        GameError::NotYourTurn {
            player: X,
            to_act: O,
        },
        |g| g.take(X),
    );
    refused(&mut g, GameError::DoublePending, |g| g.play_text(X, "13/8"));
    g.take(O).unwrap();
    assert_eq!(g.cube_value(), 2);
    assert_eq!(g.cube_owner(), CubeOwner::Owned(O));
    // X must roll now: the cube is O's.
    assert_eq!(
        g.decision(),
        Decision::Roll {
            player: X,
            may_double: false
        }
    );
    refused(&mut g, GameError::CubeOwnedByOpponent, |g| g.double(X));
    g.roll(X).unwrap();
    g.play_text(X, "13/8 13/11").unwrap();
    // O redoubles to 4; X drops and gives up 2 points.
    g.double(O).unwrap();
    let events = g.drop_double(X).unwrap();
    assert_eq!(
        events[0],
        Event::Dropped {
            player: X,
            points: 2
        }
    );
    let outcome = g.outcome().unwrap();
    assert_eq!(
        outcome,
        GameOutcome {
            winner: O,
            points: 2,
            ending: Ending::Dropped,
            jacoby: false
        }
    );
    assert_eq!(g.score(), [2, 0]);
    assert_eq!(g.match_state().game_state, GameState::Dropped);
    // The next game starts with a centred cube.
    g.new_game().unwrap();
    assert_eq!((g.cube_value(), g.cube_owner()), (1, CubeOwner::Centered));
    assert_eq!(g.games().len(), 2);
}

#[test]
fn beavers_and_raccoons_in_money_play() {
    let mut g = Game::new(Rules::money(), scripted("31")).unwrap();
    g.new_game().unwrap();
    g.play_text(O, "8/5 6/5").unwrap();
    g.double(X).unwrap();
    // O beavers: the cube is 2 on O's side and X must answer a redouble to 4.
    assert_eq!(
        g.beaver(O).unwrap(),
        vec![Event::Beavered {
            player: O,
            cube: 4,
            raccoon: false
        }]
    );
    assert_eq!(
        g.decision(),
        Decision::AnswerDouble {
            player: X,
            cube: 4,
            may_beaver: true
        }
    );
    let state = g.match_state();
    assert_eq!(
        (state.turn, state.on_roll, state.doubled, state.cube_log2),
        (X, X, true, 1)
    );
    // The ID of a pending beaver reads back.
    let (p, s) = gnubg_id::decode(&gnubg_id::encode(&g.position(), &state)).unwrap();
    let copy = Game::from_position(g.rules().clone(), p, s, scripted("")).unwrap();
    assert_eq!(copy.decision(), g.decision());
    // X raccoons, O beavers again: the third in a row is the last allowed.
    let raccoon = g.beaver(X).unwrap();
    assert_eq!(
        raccoon,
        vec![Event::Beavered {
            player: X,
            cube: 8,
            raccoon: true
        }]
    );
    g.beaver(O).unwrap();
    assert_eq!(
        g.decision(),
        Decision::AnswerDouble {
            player: X,
            cube: 16,
            may_beaver: false
        }
    );
    refused(&mut g, GameError::TooManyBeavers(MAX_BEAVERS), |g| {
        g.beaver(X)
    });
    // X takes: the cube (16) stays with O, the player doubled first; X rolls.
    g.take(X).unwrap();
    assert_eq!((g.cube_value(), g.cube_owner()), (16, CubeOwner::Owned(O)));
    assert_eq!(
        g.decision(),
        Decision::Roll {
            player: X,
            may_double: false
        }
    );

    // Dropping a beaver pays the beavered cube.
    let mut g = Game::new(Rules::money(), scripted("31")).unwrap();
    g.new_game().unwrap();
    g.play_text(O, "8/5 6/5").unwrap();
    g.double(X).unwrap();
    g.beaver(O).unwrap();
    g.drop_double(X).unwrap();
    assert_eq!(g.outcome().unwrap().points, 2);
    assert_eq!(g.score(), [2, 0]);

    // Beavers switched off, and in match play.
    let mut rules = Rules::money();
    rules.beavers = false;
    let mut g = Game::new(rules, scripted("31")).unwrap();
    g.new_game().unwrap();
    g.play_text(O, "8/5 6/5").unwrap();
    g.double(X).unwrap();
    refused(&mut g, GameError::BeaversOff, |g| g.beaver(O));
    let mut g = Game::new(Rules::match_to(5), scripted("31")).unwrap();
    g.new_game().unwrap();
    g.play_text(O, "8/5 6/5").unwrap();
    g.double(X).unwrap();
    assert_eq!(
        g.decision(),
        Decision::AnswerDouble {
            player: O,
            cube: 2,
            may_beaver: false
        }
    );
    refused(&mut g, GameError::BeaverInMatch, |g| g.beaver(O));
}

/// A position where the player on roll (X) bears off his last checker with any roll, while O
/// has borne off nothing and has a checker in X's home board (a backgammon) or not (a gammon).
fn last_roll(backgammon: bool) -> Position {
    if backgammon {
        sides(&[(1, 1)], &[(23, 1), (12, 14)])
    } else {
        sides(&[(1, 1)], &[(12, 15)])
    }
}

#[test]
fn gammons_backgammons_and_the_jacoby_rule() {
    for (backgammon, value) in [(false, 2), (true, 3)] {
        // Match play: gammons count, cube 2 owned by X.
        let rules = Rules::match_to(9);
        let state = MatchState {
            cube_log2: 1,
            cube_owner: CubeOwner::Owned(X),
            ..state_before_roll(&rules, X)
        };
        let mut g =
            Game::from_position(rules, last_roll(backgammon), state, scripted("21")).unwrap();
        g.roll(X).unwrap();
        let mv = g.legal_moves()[0].mv;
        let events = g.play(X, &mv).unwrap();
        let outcome = g.outcome().unwrap();
        let kind = if backgammon {
            WinKind::Backgammon
        } else {
            WinKind::Gammon
        };
        assert_eq!(
            outcome,
            GameOutcome {
                winner: X,
                points: 2 * value,
                ending: Ending::BearOff(kind),
                jacoby: false
            }
        );
        assert_eq!(events.last(), Some(&Event::GameOver(outcome)));
        assert_eq!(g.score(), [0, 2 * value as u16]);
        assert_eq!(g.match_state().game_state, GameState::Over);

        // Money play with the Jacoby rule and a centred cube: a single game.
        let rules = Rules::money();
        let state = state_before_roll(&rules, X);
        let mut g =
            Game::from_position(rules.clone(), last_roll(backgammon), state, scripted("21"))
                .unwrap();
        g.roll(X).unwrap();
        g.play_text(X, "1/off").unwrap();
        let outcome = g.outcome().unwrap();
        assert_eq!((outcome.points, outcome.jacoby), (1, true));

        // Jacoby off, or the cube turned: gammons count.
        let mut no_jacoby = Rules::money();
        no_jacoby.jacoby = false;
        let state = state_before_roll(&no_jacoby, X);
        let mut g =
            Game::from_position(no_jacoby, last_roll(backgammon), state, scripted("21")).unwrap();
        g.roll(X).unwrap();
        g.play_text(X, "1/off").unwrap();
        assert_eq!(g.outcome().unwrap().points, value);
        let state = MatchState {
            cube_log2: 1,
            cube_owner: CubeOwner::Owned(O),
            ..state_before_roll(&rules, X)
        };
        let mut g =
            Game::from_position(rules, last_roll(backgammon), state, scripted("21")).unwrap();
        g.roll(X).unwrap();
        g.play_text(X, "1/off").unwrap();
        assert_eq!(g.outcome().unwrap().points, 2 * value);
    }
}

/// Starts the next game of `g` with O starting (opening roll 3-1) and plays O's first move, so
/// that X is to act.
fn x_to_act(g: &mut Game) {
    g.set_dice_source(scripted("31"));
    g.new_game().unwrap();
    g.play_text(O, "8/5 6/5").unwrap();
}

#[test]
fn resignations_offered_accepted_and_rejected() {
    let mut g = Game::new(Rules::money(), scripted("")).unwrap();
    x_to_act(&mut g);
    refused(
        &mut g,
        GameError::NotYourTurn {
            player: O,
            to_act: X,
        },
        |g| g.resign(O, Resignation::Single),
    );
    g.resign(X, Resignation::Gammon).unwrap();
    assert_eq!(
        g.decision(),
        Decision::AnswerResignation {
            player: O,
            resignation: Resignation::Gammon
        }
    );
    let state = g.match_state();
    assert_eq!(
        (state.resigned, state.turn, state.on_roll),
        (Some(Resignation::Gammon), O, X)
    );
    refused(&mut g, GameError::ResignationPending, |g| g.roll(X));
    refused(&mut g, GameError::ResignationPending, |g| {
        g.resign(X, Resignation::Backgammon)
    });
    refused(
        &mut g,
        GameError::NotYourTurn {
            player: X,
            to_act: O,
        },
        |g| g.accept_resignation(X),
    );
    // The ID of a pending resignation reads back.
    let (p, s) = gnubg_id::decode(&gnubg_id::encode(&g.position(), &state)).unwrap();
    let copy = Game::from_position(g.rules().clone(), p, s, scripted("")).unwrap();
    assert_eq!(copy.decision(), g.decision());
    g.reject_resignation(O).unwrap();
    assert_eq!(
        g.decision(),
        Decision::Roll {
            player: X,
            may_double: true
        }
    );
    refused(
        &mut g,
        GameError::ResignationRejectedBefore(Resignation::Gammon),
        |g| g.resign(X, Resignation::Single),
    );
    g.resign(X, Resignation::Backgammon).unwrap();
    let events = g.accept_resignation(O).unwrap();
    let outcome = g.outcome().unwrap();
    assert_eq!(
        events,
        vec![
            Event::ResignationAccepted {
                player: O,
                resignation: Resignation::Backgammon
            },
            Event::GameOver(outcome)
        ]
    );
    // The Jacoby rule applies to resignations too (centred cube).
    assert_eq!(
        outcome,
        GameOutcome {
            winner: O,
            points: 1,
            ending: Ending::Resigned(Resignation::Backgammon),
            jacoby: true
        }
    );
    assert_eq!(g.match_state().game_state, GameState::Resigned);

    // A resignation after the roll resumes with the dice when rejected.
    let mut g = Game::new(Rules::match_to(5), scripted("")).unwrap();
    x_to_act(&mut g);
    g.set_dice_source(scripted("64"));
    g.roll(X).unwrap();
    g.resign(X, Resignation::Single).unwrap();
    assert_eq!(g.match_state().dice, Some(dice("64")));
    g.reject_resignation(O).unwrap();
    assert_eq!(
        g.decision(),
        Decision::Move {
            player: X,
            dice: dice("64")
        }
    );
    // Resigning instead of answering a double.
    g.play_text(X, "24/14").unwrap();
    g.double(O).unwrap();
    g.resign(X, Resignation::Gammon).unwrap();
    g.accept_resignation(O).unwrap();
    assert_eq!(g.score(), [2, 0]);
}

#[test]
fn crawford_and_post_crawford_games() {
    let mut g = Game::new(Rules::match_to(3), scripted("")).unwrap();
    // Game 1: X resigns a gammon: O leads 2-0 and is at match point.
    x_to_act(&mut g);
    g.resign(X, Resignation::Gammon).unwrap();
    let events = g.accept_resignation(O).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::MatchOver { .. })));
    assert_eq!(g.score(), [2, 0]);
    // Game 2 is the Crawford game: nobody may double.
    x_to_act(&mut g);
    assert!(g.is_crawford_game() && !g.is_post_crawford());
    assert!(g.match_state().crawford);
    assert!(g.current_record().unwrap().crawford);
    assert_eq!(
        g.decision(),
        Decision::Roll {
            player: X,
            may_double: false
        }
    );
    refused(&mut g, GameError::CrawfordGame, |g| g.double(X));
    // X wins it (O resigns after X's move).
    g.set_dice_source(scripted("64"));
    g.roll(X).unwrap();
    g.play_text(X, "24/14").unwrap();
    g.resign(O, Resignation::Single).unwrap();
    g.accept_resignation(X).unwrap();
    assert_eq!(g.score(), [2, 1]);
    // Game 3 is post-Crawford: doubling is allowed again.
    x_to_act(&mut g);
    assert!(!g.is_crawford_game() && g.is_post_crawford());
    assert!(!g.match_state().crawford);
    assert_eq!(
        g.decision(),
        Decision::Roll {
            player: X,
            may_double: true
        }
    );
    g.double(X).unwrap();
    g.take(O).unwrap();
    // O wins: the match is over.
    g.set_dice_source(scripted("64"));
    g.roll(X).unwrap();
    g.play_text(X, "24/14").unwrap();
    g.roll_dice(O, dice("21")).unwrap();
    g.play_text(O, "13/11 6/5").unwrap();
    g.resign(X, Resignation::Single).unwrap();
    let events = g.accept_resignation(O).unwrap();
    assert_eq!(
        events.last(),
        Some(&Event::MatchOver {
            winner: O,
            score: [4, 1]
        })
    );
    assert_eq!(g.match_winner(), Some(O));
    assert_eq!(g.decision(), Decision::MatchOver { winner: O });
    // The Match ID stays valid: the score is capped at the match length.
    assert_eq!(g.match_state().score, [3, 1]);
    refused(&mut g, GameError::MatchOver { winner: O }, |g| g.new_game());
    refused(&mut g, GameError::MatchOver { winner: O }, |g| g.roll(X));

    // Without the Crawford rule there is no Crawford game.
    let mut rules = Rules::match_to(3);
    rules.crawford = false;
    let mut g = Game::new(rules, scripted("")).unwrap();
    x_to_act(&mut g);
    g.resign(X, Resignation::Gammon).unwrap();
    g.accept_resignation(O).unwrap();
    x_to_act(&mut g);
    assert!(!g.is_crawford_game());
    g.double(X).unwrap();
}

#[test]
fn crawford_game_can_be_set_by_hand() {
    let rules = Rules::match_to(5);
    let state = MatchState {
        score: [4, 2],
        ..state_before_roll(&rules, X)
    };
    let mut g =
        Game::from_position(rules.clone(), Position::starting(), state, scripted("")).unwrap();
    // A score with a player at match point and no Crawford flag is post-Crawford.
    assert!(g.is_post_crawford());
    g.set_crawford_game(true).unwrap();
    assert!(g.is_crawford_game());
    assert_eq!(g.can_double(X), Err(GameError::CrawfordGame));
    g.set_crawford_game(false).unwrap();
    assert_eq!(g.can_double(X), Ok(()));
    let not_at_match_point = MatchState {
        score: [1, 2],
        ..state_before_roll(&rules, X)
    };
    let mut g = Game::from_position(
        rules,
        Position::starting(),
        not_at_match_point,
        scripted(""),
    )
    .unwrap();
    assert!(matches!(
        g.set_crawford_game(true),
        Err(GameError::InvalidSetup(_))
    ));
    let mut money = Game::new(Rules::money(), scripted("31")).unwrap();
    money.new_game().unwrap();
    assert!(money.set_crawford_game(true).is_err());
}

#[test]
fn editing_the_position_turn_and_rules() {
    let mut g = Game::new(Rules::money(), scripted("31")).unwrap();
    assert_eq!(g.set_turn(X), Err(GameError::NoGame));
    g.new_game().unwrap();
    // O is on roll with 3-1; give the turn to X before the roll.
    g.set_turn(X).unwrap();
    assert_eq!(
        g.decision(),
        Decision::Roll {
            player: X,
            may_double: true
        }
    );
    let p = sides(&[(6, 15)], &[(6, 15)]);
    g.set_position(p).unwrap();
    assert_eq!(g.position(), p);
    assert!(g.set_position(sides(&[], &[(6, 15)])).is_err());
    g.set_jacoby(false);
    g.set_beavers(false);
    assert!(!g.rules().jacoby && !g.rules().beavers);
    assert!(!g.match_state().jacoby);
    g.double(X).unwrap();
    assert_eq!(g.set_turn(O), Err(GameError::DoublePending));
    assert_eq!(g.set_dice(dice("11")), Err(GameError::DoublePending));
}

#[test]
fn setups_are_validated() {
    let rules = Rules::money();
    let over = MatchState {
        game_state: GameState::Over,
        ..MatchState::money()
    };
    assert!(Game::from_position(rules.clone(), Position::starting(), over, scripted("")).is_err());
    let finished = sides(&[], &[(6, 15)]);
    assert!(
        Game::from_position(rules.clone(), finished, MatchState::money(), scripted("")).is_err()
    );
    let bad_score = MatchState {
        score: [3, 0],
        ..MatchState::new_match(3)
    };
    assert!(
        Game::from_position(rules.clone(), Position::starting(), bad_score, scripted("")).is_err()
    );
    let too_long = MatchState::new_match(65);
    assert!(matches!(
        Game::from_position(rules, Position::starting(), too_long, scripted("")),
        Err(GameError::InvalidRules(_))
    ));
    assert!(Game::new(Rules::match_to(100), scripted("")).is_err());
}

#[test]
fn full_matches_with_random_cube_play() {
    // A 5-point match played with the first legal move, doubling whenever allowed and taking
    // every other double: the Crawford game comes exactly once, scores add up, and the match
    // ends.
    for seed in 0..10u64 {
        let mut g = Game::new(Rules::match_to(5), Box::new(RandomDice::new(seed))).unwrap();
        let mut crawford_games = 0;
        let mut total = [0u32; 2];
        let mut flip = seed % 2 == 0;
        while g.match_winner().is_none() {
            g.new_game().unwrap();
            if g.is_crawford_game() {
                crawford_games += 1;
                let s = g.score();
                assert!(s.contains(&4), "{s:?}");
            }
            for _ in 0..10_000 {
                match g.decision() {
                    Decision::Roll { player, may_double } => {
                        if may_double {
                            g.double(player).unwrap();
                        } else {
                            g.roll(player).unwrap();
                        }
                    }
                    Decision::AnswerDouble { player, .. } => {
                        flip = !flip;
                        if flip {
                            g.take(player).unwrap();
                        } else {
                            g.drop_double(player).unwrap();
                        }
                    }
                    Decision::Move { player, .. } => {
                        let mv = g.legal_moves()[0].mv;
                        g.play(player, &mv).unwrap();
                    }
                    Decision::OpeningRoll => {
                        g.roll(X).unwrap();
                    }
                    _ => break,
                }
            }
            let outcome = g.outcome().expect("game over");
            total[outcome.winner.index()] += outcome.points;
            assert_eq!(
                [u32::from(g.score()[0]), u32::from(g.score()[1])],
                total,
                "seed {seed}"
            );
        }
        assert!(crawford_games <= 1, "seed {seed}");
        let winner = g.match_winner().unwrap();
        assert!(g.score()[winner.index()] >= 5);
        assert!(g.score()[winner.other().index()] < 5);
    }
}

fn search() -> Search {
    Search::new(Arc::new(Nets::embedded()))
}

#[test]
fn bots_play_a_match_to_the_end() {
    let mut s = search();
    let bot = Bot::new(Level::Expert);
    // Matches to 3 with several seeds: some take more than one game (which ones depends on the
    // nets; a doubled gammon can end one in a single game).
    let mut longest = 0;
    for seed in 11..=16 {
        let mut g = Game::new(Rules::match_to(3), Box::new(RandomDice::new(seed))).unwrap();
        let mut actions = 0;
        while g.match_winner().is_none() {
            g.new_game().unwrap();
            while let Some((player, action)) = bot.choose(&g, &mut s) {
                g.apply(player, action)
                    .unwrap_or_else(|e| panic!("the bot's {action:?} was refused: {e}"));
                actions += 1;
                assert!(actions < 5_000);
            }
            if g.decision() == Decision::OpeningRoll {
                panic!("random dice never run out");
            }
        }
        let winner = g.match_winner().unwrap();
        assert!(g.score()[winner.index()] >= 3, "seed {seed}");
        assert!(g.score()[winner.other().index()] < 3, "seed {seed}");
        longest = longest.max(g.games().len());
    }
    assert!(longest >= 2, "every match ended in its first game");
}

#[test]
fn bots_money_session_with_beavers() {
    let mut s = search();
    let bot = Bot::new(Level::Beginner);
    let mut g = Game::new(Rules::money(), Box::new(RandomDice::new(5))).unwrap();
    for _ in 0..3 {
        g.new_game().unwrap();
        let mut actions = 0;
        while let Some((player, action)) = bot.choose(&g, &mut s) {
            g.apply(player, action).unwrap();
            actions += 1;
            assert!(actions < 5_000);
        }
        assert!(g.outcome().is_some());
    }
}

#[test]
fn bot_cube_and_resignation_decisions() {
    let mut s = search();
    let settings = Level::Expert.settings();
    // X (on roll) has borne off 13 checkers and bears off the last two next roll; O has 15
    // checkers left far away.
    let race = sides(&[(1, 2)], &[(12, 15)]);
    let mut no_jacoby = Rules::money();
    no_jacoby.jacoby = false;
    let state = state_before_roll(&no_jacoby, X);
    // Too good to double: X plays on for the gammon.
    assert!(!bot::should_double(&mut s, &race, &state, &settings, true));
    // A 20% lead in a long race without gammons: double, pass.
    let lead = sides(&[(8, 5), (7, 5), (5, 5)], &[(8, 5), (9, 5), (7, 5)]);
    assert!(bot::should_double(&mut s, &lead, &state, &settings, false));
    let doubled = MatchState {
        doubled: true,
        turn: O,
        ..state
    };
    assert_eq!(
        bot::answer_double(&mut s, &lead, &doubled, &settings, false),
        crate::cube::Response::Pass
    );
    // The player far behind takes an early double, and beavers one that is a blunder.
    let start = MatchState {
        doubled: true,
        turn: O,
        ..state_before_roll(&Rules::money(), X)
    };
    assert_ne!(
        bot::answer_double(&mut s, &Position::starting(), &start, &settings, false),
        crate::cube::Response::Pass
    );
    assert_eq!(
        bot::answer_double(&mut s, &Position::starting(), &start, &settings, true),
        crate::cube::Response::Beaver
    );
    // Resignations: O (to act) is offered a single game in a position where O is sure to win
    // a gammon: reject; offered a backgammon there: accept.
    let gammon_for_o = sides(&[(12, 15)], &[(1, 2)]);
    let resigning = MatchState {
        resigned: Some(Resignation::Single),
        turn: O,
        ..state_before_roll(&no_jacoby, X)
    };
    assert!(!bot::accept_resignation(
        &mut s,
        &gammon_for_o,
        &resigning,
        Resignation::Single,
        &settings,
        false
    ));
    assert!(bot::accept_resignation(
        &mut s,
        &gammon_for_o,
        &resigning,
        Resignation::Backgammon,
        &settings,
        false
    ));
    // In a match, winning a single game that wins the match is as good as anything.
    let rules = Rules::match_to(3);
    let match_point = MatchState {
        resigned: Some(Resignation::Single),
        turn: O,
        score: [2, 0],
        ..state_before_roll(&rules, X)
    };
    assert!(bot::accept_resignation(
        &mut s,
        &gammon_for_o,
        &match_point,
        Resignation::Single,
        &settings,
        false
    ));
}

// ----------------------------------------------------------------------------------------------
// The match record written as the game is played, and its replay
// ----------------------------------------------------------------------------------------------

use crate::game::record::replay::{ActionFault, ReplayError};
use crate::game::record::{GameResult as RecordResult, MatchRecord, RecordAction, Setup};

fn mv(text: &str, before: &Position, d: Dice) -> Move {
    crate::formats::notation::parse_move(before, d, text)
        .unwrap()
        .mv
}

/// The actions of game `game` (counting from 0) of the record.
fn actions(g: &Game, game: usize) -> Vec<RecordAction> {
    g.record().games[game]
        .entries
        .iter()
        .map(|e| e.action.clone())
        .collect()
}

/// The game replayed from its own record is in the same state, and so is the replay's last
/// snapshot.
#[track_caller]
fn replays_to_same_state(g: &Game) {
    let replay = g
        .record()
        .replay()
        .unwrap_or_else(|e| panic!("{e}\n{:#?}", g.record()));
    if let Some(last) = replay.games().last() {
        assert_eq!(last.end().position, g.position());
        assert_eq!(last.end().state, g.match_state());
    }
    let copy = Game::from_record(g.record(), scripted("")).unwrap();
    assert_eq!(copy.position(), g.position());
    assert_eq!(copy.match_state(), g.match_state());
    assert_eq!(copy.decision(), g.decision());
    assert_eq!(copy.score(), g.score());
    assert_eq!(copy.is_post_crawford(), g.is_post_crawford());
    assert_eq!(copy.record(), g.record());
}

#[test]
fn the_record_holds_rolls_moves_cube_actions_and_results() {
    let mut g = Game::new(Rules::match_to(3), scripted("31 52 64")).unwrap();
    g.set_players(["Ann".to_string(), "Bob".to_string()]);
    assert_eq!(g.players(), &["Ann".to_string(), "Bob".to_string()]);
    g.new_game().unwrap();
    let start = Position::starting();
    g.play_text(O, "8/5 6/5").unwrap();
    let after_o = g.position();
    g.roll(X).unwrap();
    // Rolled, not moved: a roll entry.
    assert_eq!(
        actions(&g, 0).last(),
        Some(&RecordAction::Roll {
            player: X,
            dice: dice("52")
        })
    );
    g.play_text(X, "13/8 13/11").unwrap();
    g.double(O).unwrap();
    g.drop_double(X).unwrap();
    assert_eq!(
        actions(&g, 0),
        vec![
            RecordAction::Move {
                player: O,
                dice: dice("31"),
                mv: mv("8/5 6/5", &start, dice("31"))
            },
            RecordAction::Move {
                player: X,
                dice: dice("52"),
                mv: mv("13/8 13/11", &after_o, dice("52"))
            },
            RecordAction::Double { player: O },
            RecordAction::Drop { player: X },
        ]
    );
    let record = g.record();
    assert_eq!(record.info.players[1], "Bob");
    assert_eq!(record.info.rules, Rules::match_to(3));
    assert!(record.info.cube_used);
    assert_eq!(record.games[0].score, [0, 0]);
    assert!(!record.games[0].crawford);
    assert_eq!(
        record.games[0].result,
        Some(RecordResult {
            winner: O,
            points: 1,
            resigned: false
        })
    );
    replays_to_same_state(&g);
    // The next game: X starts with 6-4 and resigns a gammon after rolling 6-4... O accepts.
    g.set_dice_source(scripted("46 11"));
    g.new_game().unwrap();
    g.resign(X, Resignation::Gammon).unwrap();
    g.accept_resignation(O).unwrap();
    assert_eq!(
        actions(&g, 1),
        vec![
            RecordAction::Roll {
                player: X,
                dice: dice("64")
            },
            RecordAction::Resign {
                player: X,
                resignation: Resignation::Gammon
            },
            RecordAction::AcceptResignation { player: O },
        ]
    );
    assert_eq!(g.record().games[1].score, [1, 0]);
    assert_eq!(
        g.record().games[1].result,
        Some(RecordResult {
            winner: O,
            points: 2,
            resigned: true
        })
    );
    replays_to_same_state(&g);
    assert_eq!(g.match_winner(), Some(O));
}

#[test]
fn corrected_dice_edits_and_setups_are_recorded_so_that_they_replay() {
    let mut g = Game::new(Rules::money(), scripted("31")).unwrap();
    g.new_game().unwrap();
    g.play_text(O, "8/5 6/5").unwrap();
    g.roll_dice(X, dice("43")).unwrap();
    g.set_dice(dice("52")).unwrap();
    // The correction replaces the roll.
    assert_eq!(
        actions(&g, 0).last(),
        Some(&RecordAction::Roll {
            player: X,
            dice: dice("52")
        })
    );
    replays_to_same_state(&g);
    g.set_turn(O).unwrap();
    replays_to_same_state(&g);
    g.set_cube(2, CubeOwner::Owned(X)).unwrap();
    assert_eq!(g.cube_value(), 4);
    assert_eq!(g.cube_owner(), CubeOwner::Owned(X));
    replays_to_same_state(&g);
    let p = sides(&[(6, 2), (5, 2), (13, 1)], &[(6, 2), (1, 3)]);
    g.set_position(p).unwrap();
    assert!(matches!(
        actions(&g, 0).last(),
        Some(RecordAction::SetUp(Setup { position, .. })) if *position == p
    ));
    replays_to_same_state(&g);
    g.roll_dice(O, dice("66")).unwrap();
    let first = g.legal_moves()[0].mv;
    g.play(O, &first).unwrap();
    replays_to_same_state(&g);
    // Set-up dice that cannot be played wait for the empty move.
    let closed = sides(
        &[(25, 1), (13, 1)],
        &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)],
    );
    g.set_up(&Setup {
        position: closed,
        on_roll: O,
        cube_log2: 0,
        cube_owner: CubeOwner::Centered,
        dice: Some(dice("43")),
    })
    .unwrap();
    assert_eq!(g.legal_moves().len(), 1);
    replays_to_same_state(&g);
    g.play(O, &Move::NONE).unwrap();
    assert_eq!(
        actions(&g, 0).last(),
        Some(&RecordAction::Move {
            player: O,
            dice: dice("43"),
            mv: Move::NONE
        })
    );
    replays_to_same_state(&g);
    g.set_position(p.swap()).unwrap();
    // A double and a beaver on offer survive an edit of the position.
    g.roll_dice(X, dice("21")).unwrap();
    g.play_text(X, "6/4 6/5").unwrap();
    assert_eq!(g.outcome(), None);
    g.set_cube(1, CubeOwner::Owned(O)).unwrap();
    g.double(O).unwrap();
    g.beaver(X).unwrap();
    let here = g.position();
    g.set_position(here).unwrap();
    replays_to_same_state(&g);
    g.resign(O, Resignation::Single).unwrap();
    g.set_position(here).unwrap();
    replays_to_same_state(&g);
    g.reject_resignation(X).unwrap();
    g.take(O).unwrap();
    replays_to_same_state(&g);
}

#[test]
fn games_set_up_from_a_position_record_the_set_up() {
    let rules = Rules::money();
    let state = MatchState {
        dice: Some(dice("64")),
        cube_log2: 1,
        cube_owner: CubeOwner::Owned(O),
        ..state_before_roll(&rules, O)
    };
    let p = sides(&[(6, 3), (2, 1)], &[(24, 2), (1, 3)]);
    let g = Game::from_position(rules.clone(), p, state, scripted("")).unwrap();
    assert_eq!(
        actions(&g, 0),
        vec![RecordAction::SetUp(Setup {
            position: p,
            on_roll: O,
            cube_log2: 1,
            cube_owner: CubeOwner::Owned(O),
            dice: Some(dice("64")),
        })]
    );
    replays_to_same_state(&g);
    // A beaver on offer: O doubled, X beavered, O answers.
    let beavered = MatchState {
        dice: None,
        doubled: true,
        turn: O,
        cube_log2: 2,
        cube_owner: CubeOwner::Owned(X),
        ..state
    };
    let g = Game::from_position(rules.clone(), p, beavered, scripted("")).unwrap();
    assert!(matches!(
        g.decision(),
        Decision::AnswerDouble {
            player: O,
            cube: 8,
            ..
        }
    ));
    assert_eq!(
        actions(&g, 0)[1..],
        [
            RecordAction::Double { player: O },
            RecordAction::Beaver { player: X }
        ]
    );
    replays_to_same_state(&g);
    // A resignation on offer after the roll.
    let resigned = MatchState {
        turn: X,
        resigned: Some(Resignation::Gammon),
        ..state
    };
    let g = Game::from_position(rules, p, resigned, scripted("")).unwrap();
    assert_eq!(
        g.decision(),
        Decision::AnswerResignation {
            player: X,
            resignation: Resignation::Gammon
        }
    );
    replays_to_same_state(&g);
}

/// A random but legal way through a match: doubles, takes, drops, beavers, resignations offered,
/// accepted and rejected, corrected dice and edits.
fn random_match(seed: u64, rules: Rules, edits: bool) -> Game {
    let mut g = Game::new(rules, Box::new(RandomDice::new(seed))).unwrap();
    let mut state = seed ^ 0x5DEECE66D;
    let mut pick = |n: u64| splitmix64(&mut state) % n;
    for _ in 0..3000 {
        let result = match g.decision() {
            Decision::NewGame => g.new_game(),
            Decision::MatchOver { .. } => break,
            Decision::OpeningRoll => g.roll(O),
            Decision::Roll { player, may_double } => match pick(20) {
                0 | 1 if may_double => g.double(player),
                2 => g.resign(player, Resignation::Single),
                3 if edits => g.set_turn(player.other()).map(|_| Vec::new()),
                4 if edits && !g.is_crawford_game() => g
                    .set_cube(pick(3) as u8, CubeOwner::Owned(player))
                    .map(|_| Vec::new()),
                _ => g.roll(player),
            },
            Decision::Move { player, .. } => {
                if edits && pick(30) == 0 {
                    let d = Dice::new(pick(6) as u8 + 1, pick(6) as u8 + 1).unwrap();
                    g.set_dice(d)
                } else if pick(40) == 0 {
                    g.resign(player, Resignation::Gammon)
                } else {
                    let legal = g.legal_moves();
                    let choice = legal[pick(legal.len() as u64) as usize].mv;
                    g.play(player, &choice)
                }
            }
            Decision::AnswerDouble {
                player, may_beaver, ..
            } => match pick(6) {
                0 => g.drop_double(player),
                1 if may_beaver => g.beaver(player),
                _ => g.take(player),
            },
            Decision::AnswerResignation { player, .. } => {
                if pick(2) == 0 {
                    g.accept_resignation(player)
                } else {
                    g.reject_resignation(player)
                }
            }
        };
        // Offers already rejected may be refused; nothing else is.
        match result {
            Ok(_) | Err(GameError::ResignationRejectedBefore(_)) => {}
            Err(e) => panic!("seed {seed}: {e}"),
        }
        if edits && pick(50) == 0 && g.in_progress() {
            let p = g.position();
            let _ = g.set_position(p);
        }
    }
    g
}

#[test]
fn random_matches_replay_from_their_record_at_every_action() {
    for seed in 0..12 {
        let rules = if seed % 3 == 0 {
            Rules::money()
        } else {
            Rules::match_to(1 + (seed % 7) as u16)
        };
        let g = random_match(seed, rules, seed % 2 == 1);
        replays_to_same_state(&g);
        let record = g.record().clone();
        let replay = record.replay().unwrap();
        assert_eq!(replay.games().len(), record.games.len());
        // Play on from every action: the state is the replay's state before that action.
        for (gi, game) in record.games.iter().enumerate().take(2) {
            let replayed = replay.game(gi).unwrap();
            assert_eq!(replayed.replayed(), game.entries.len());
            for ei in 0..game.entries.len() {
                let at = record.game_at(gi, ei, scripted("")).unwrap();
                let before = replayed.before(ei).unwrap();
                assert_eq!(
                    at.position(),
                    before.position,
                    "seed {seed} game {gi} entry {ei}"
                );
                assert_eq!(at.match_state(), before.state);
                if let RecordAction::Move { player, dice, .. } = game.entries[ei].action {
                    let rolled = replayed.rolled(ei).unwrap();
                    assert_eq!(rolled.state.on_roll, player);
                    assert_eq!(
                        rolled.state.dice.map(Dice::normalized),
                        Some(dice.normalized())
                    );
                }
            }
        }
    }
}

#[test]
fn matches_continue_from_a_cut_record() {
    let g = random_match(5, Rules::match_to(5), false);
    let mut record = g.record().clone();
    let entries = record.games[0].entries.len();
    record.truncate_at(0, entries / 2);
    assert_eq!(record.games.len(), 1);
    assert_eq!(record.games[0].entries.len(), entries / 2);
    assert_eq!(record.games[0].result, None);
    let mut on = Game::from_record(&record, Box::new(RandomDice::new(9))).unwrap();
    play_out(&mut on, false);
    assert!(on.outcome().is_some());
    assert!(on.record().games[0].entries.len() > entries / 2);
    replays_to_same_state(&on);
}

#[test]
fn set_analysis_changes_only_the_analysis_slot_of_an_existing_entry() {
    use crate::game::record::analysis::ActionAnalysis;
    let mut g = Game::new(Rules::match_to(3), scripted("31 52 64")).unwrap();
    g.new_game().unwrap();
    g.play_text(O, "8/5 6/5").unwrap();
    g.roll(X).unwrap();
    g.play_text(X, "13/8 13/11").unwrap();
    let before = snapshot(&g);
    let analysis = ActionAnalysis {
        luck: Some(0.25),
        ..ActionAnalysis::default()
    };
    assert!(g.set_analysis(0, 1, Some(Box::new(analysis.clone()))));
    assert_eq!(
        g.record().games[0].entries[1].analysis.as_deref(),
        Some(&analysis)
    );
    assert_eq!(g.record().games[0].entries[0].analysis, None);
    // Actions, position and flow are untouched.
    assert_eq!(g.position(), before.position);
    assert_eq!(g.decision(), before.decision);
    assert_eq!(
        actions(&g, 0),
        before.record.games[0]
            .entries
            .iter()
            .map(|e| e.action.clone())
            .collect::<Vec<_>>()
    );
    // No such entry or game: nothing changes.
    let stored = snapshot(&g);
    assert!(!g.set_analysis(0, 2, Some(Box::new(analysis.clone()))));
    assert!(!g.set_analysis(1, 0, None));
    assert_eq!(snapshot(&g), stored);
    // Clearing.
    assert!(g.set_analysis(0, 1, None));
    assert_eq!(snapshot(&g), before);
}

#[test]
fn bad_records_are_typed_errors_naming_game_and_action() {
    let mut g = Game::new(Rules::match_to(3), scripted("31 52 64 42")).unwrap();
    g.new_game().unwrap();
    g.play_text(O, "8/5 6/5").unwrap();
    g.roll(X).unwrap();
    g.play_text(X, "13/8 13/11").unwrap();
    g.double(O).unwrap();
    g.drop_double(X).unwrap();
    g.new_game().unwrap();
    let good = g.record().clone();
    good.replay().unwrap();

    // An illegal move.
    let mut bad = good.clone();
    if let RecordAction::Move { mv, .. } = &mut bad.games[0].entries[1].action {
        *mv = Move::from_steps(&[Step { from: 24, to: 19 }, Step { from: 24, to: 22 }]);
    }
    let err = bad.replay().unwrap_err();
    assert!(matches!(
        err,
        ReplayError::Action {
            game: 1,
            entry: 2,
            fault: ActionFault::Rules(GameError::NotALegalMove { .. }),
            ..
        }
    ));
    assert!(err
        .to_string()
        .starts_with("game 1, action 2 (X rolls 52 and plays 24/19 24/22)"));
    // Lenient: the game stops before the bad action; the next game still starts at 1-0 (the
    // result recorded for the cut game counts).
    let lenient = bad.replay_lenient().unwrap();
    assert_eq!(lenient.warnings.len(), 1);
    assert_eq!(lenient.warnings[0].dropped, 3);
    assert_eq!(lenient.record.games[0].entries.len(), 1);
    assert_eq!(lenient.record.games[1].score, [1, 0]);
    lenient.record.replay().unwrap();

    // Out of turn.
    let mut bad = good.clone();
    bad.games[0].entries.swap(1, 2);
    assert!(matches!(
        bad.replay(),
        Err(ReplayError::Action {
            game: 1,
            entry: 2,
            ..
        })
    ));

    // A score that does not follow.
    let mut bad = good.clone();
    bad.games[1].score = [0, 1];
    assert_eq!(
        bad.replay().unwrap_err(),
        ReplayError::Score {
            game: 2,
            expected: [1, 0],
            found: [0, 1]
        }
    );
    // A wrong result.
    let mut bad = good.clone();
    bad.games[0].result = Some(RecordResult {
        winner: X,
        points: 1,
        resigned: false,
    });
    assert!(matches!(
        bad.replay(),
        Err(ReplayError::Result { game: 1, .. })
    ));
    // No cube.
    let mut bad = good.clone();
    bad.info.cube_used = false;
    assert!(matches!(
        bad.replay(),
        Err(ReplayError::Action {
            game: 1,
            entry: 3,
            fault: ActionFault::NoCube,
            ..
        })
    ));
    // A game after the match is over cannot start.
    let mut bad = good.clone();
    bad.games[1].score = [3, 0];
    bad.games[0].result = None;
    bad.games[0].entries.truncate(2);
    bad.games[0].result = Some(RecordResult {
        winner: O,
        points: 3,
        resigned: true,
    });
    assert!(matches!(
        bad.replay(),
        Err(ReplayError::Start { game: 2, .. })
    ));
}

#[test]
fn crawford_flags_must_follow_the_score() {
    let mut g = Game::new(Rules::match_to(3), scripted("31")).unwrap();
    g.new_game().unwrap();
    g.double(O).unwrap_err();
    g.play_text(O, "8/5 6/5").unwrap();
    g.resign(X, Resignation::Gammon).unwrap();
    g.accept_resignation(O).unwrap();
    g.set_dice_source(scripted("31"));
    g.new_game().unwrap();
    assert!(g.is_crawford_game());
    let good = g.record().clone();
    assert!(good.games[1].crawford);
    good.replay().unwrap();
    let mut bad = good.clone();
    bad.games[1].crawford = false;
    assert_eq!(
        bad.replay().unwrap_err(),
        ReplayError::Crawford {
            game: 2,
            expected: true
        }
    );
    // A Crawford flag without a player at match point cannot start.
    let mut bad = good;
    bad.games[0].crawford = true;
    assert!(matches!(
        bad.replay(),
        Err(ReplayError::Start { game: 1, .. })
    ));
}
