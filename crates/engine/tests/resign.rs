//! The bot's offers to resign: when it offers, how much, and that it agrees with itself as the
//! player who answers.

use std::sync::Arc;

use cubeful_engine::analysis::bot::{self, Bot};
use cubeful_engine::analysis::hint::{Query, Question};
use cubeful_engine::analysis::resign::{offered, rejected_offer, resignation_offer};
use cubeful_engine::eval::Nets;
use cubeful_engine::game::{Action, Decision, Game, RandomDice, Rules};
use cubeful_engine::search::{EvalSettings, Level, Search};
use cubeful_engine::{CubeOwner, Dice, MatchState, Player, Position, Resignation};

const O: Player = Player::Zero;
const X: Player = Player::One;

fn search() -> Search {
    Search::new(Arc::new(Nets::embedded()))
}

/// A position from the checkers of the player on roll and of his opponent, each as
/// (point in the side's own numbering, checkers).
fn sides(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
    Position::from_points(player, opponent).unwrap()
}

/// X can no longer win nor be gammoned: three checkers left on his 15-point (12 borne off),
/// while O bears his last checker off next turn.
fn hopeless_race() -> Position {
    sides(&[(15, 3)], &[(1, 1)])
}

/// X will surely be gammoned but cannot be backgammoned: all fifteen checkers on his 13-point,
/// O's last checker on his 1-point.
fn sure_gammon() -> Position {
    sides(&[(13, 15)], &[(1, 1)])
}

/// Money play without the Jacoby rule, X on roll before rolling, cube centred at 1.
fn money() -> MatchState {
    MatchState {
        on_roll: X,
        turn: X,
        jacoby: false,
        ..MatchState::money()
    }
}

fn before_roll(position: Position, state: MatchState) -> Query {
    Query::from_state(position, state, false)
}

fn with_dice(position: Position, state: MatchState, dice: Dice) -> Query {
    Query::from_state(
        position,
        MatchState {
            dice: Some(dice),
            ..state
        },
        false,
    )
}

fn offer(s: &mut Search, query: &Query, level: Level) -> Option<Resignation> {
    resignation_offer(s, query, None, &level.settings())
}

/// Whether the bot at `settings` accepts `r` offered by the player on roll of `query`.
fn accepts(s: &mut Search, query: &Query, r: Resignation, settings: &EvalSettings) -> bool {
    let answered = offered(query, r);
    assert_eq!(answered.question, Question::AnswerResignation(r));
    bot::accept_resignation(
        s,
        &answered.position,
        &answered.state,
        r,
        settings,
        answered.beavers,
    )
}

/// Checks that an offer is accepted by the bot at the same settings in the mirrored position and
/// that nothing smaller is; returns the offer.
#[track_caller]
fn consistent_offer(s: &mut Search, query: &Query, settings: &EvalSettings) -> Option<Resignation> {
    let r = resignation_offer(s, query, None, settings)?;
    assert!(
        accepts(s, query, r, settings),
        "{r:?} offered, not accepted"
    );
    for smaller in [Resignation::Single, Resignation::Gammon] {
        if smaller < r {
            assert!(
                !accepts(s, query, smaller, settings),
                "{r:?} offered although {smaller:?} is accepted"
            );
        }
    }
    Some(r)
}

#[test]
fn a_hopeless_race_without_gammons_offers_a_single_game() {
    let mut s = search();
    for level in [Level::Expert, Level::Beginner, Level::WorldClass] {
        let q = before_roll(hopeless_race(), money());
        assert_eq!(
            offer(&mut s, &q, level),
            Some(Resignation::Single),
            "{level:?}"
        );
        // After the roll too (no roll saves X).
        let q = with_dice(hopeless_race(), money(), Dice::new(6, 6).unwrap());
        assert_eq!(
            offer(&mut s, &q, level),
            Some(Resignation::Single),
            "{level:?}"
        );
    }
    // With the cube owned by either side, at 2 or 4: still a single game (times the cube).
    for owner in [CubeOwner::Owned(X), CubeOwner::Owned(O)] {
        let state = MatchState {
            cube_log2: 2,
            cube_owner: owner,
            ..money()
        };
        let q = before_roll(hopeless_race(), state);
        assert_eq!(
            consistent_offer(&mut s, &q, &Level::Expert.settings()),
            Some(Resignation::Single)
        );
    }
    // Once the single game has been rejected nothing larger is worth offering.
    let q = before_roll(hopeless_race(), money());
    let settings = Level::Expert.settings();
    assert_eq!(
        resignation_offer(&mut s, &q, Some(Resignation::Single), &settings),
        None
    );
}

#[test]
fn a_sure_gammon_offers_a_gammon() {
    let mut s = search();
    let settings = Level::Expert.settings();
    let q = before_roll(sure_gammon(), money());
    assert_eq!(
        consistent_offer(&mut s, &q, &settings),
        Some(Resignation::Gammon)
    );
    assert_eq!(
        offer(&mut s, &q, Level::WorldClass),
        Some(Resignation::Gammon)
    );
    // With the dice rolled too: no roll saves the gammon.
    for dice in [(6, 6), (2, 1)] {
        let q = with_dice(sure_gammon(), money(), Dice::new(dice.0, dice.1).unwrap());
        assert_eq!(
            consistent_offer(&mut s, &q, &settings),
            Some(Resignation::Gammon)
        );
    }
    // A single game is not enough for O: the bot does not offer it, and rejects it itself.
    assert!(!accepts(&mut s, &q, Resignation::Single, &settings));
    // After the single game was rejected the gammon still is the offer; after the gammon
    // nothing (a backgammon would give away a point).
    assert_eq!(
        resignation_offer(&mut s, &q, Some(Resignation::Single), &settings),
        Some(Resignation::Gammon)
    );
    assert_eq!(
        resignation_offer(&mut s, &q, Some(Resignation::Gammon), &settings),
        None
    );
    // Under the Jacoby rule with a centred cube the gammon does not count: a single game.
    let jacoby = MatchState {
        jacoby: true,
        ..money()
    };
    let q = before_roll(sure_gammon(), jacoby);
    assert_eq!(
        consistent_offer(&mut s, &q, &settings),
        Some(Resignation::Single)
    );
}

#[test]
fn real_games_are_never_given_up() {
    let mut s = search();
    // The opening position, before and after the roll, money and match, every level tried.
    let start = MatchState {
        jacoby: true,
        ..money()
    };
    let match_start = MatchState {
        on_roll: X,
        turn: X,
        ..MatchState::new_match(7)
    };
    for level in [Level::Beginner, Level::Expert, Level::WorldClass] {
        for state in [start, match_start] {
            let q = before_roll(Position::starting(), state);
            assert_eq!(offer(&mut s, &q, level), None);
            let q = with_dice(Position::starting(), state, Dice::new(2, 1).unwrap());
            assert_eq!(offer(&mut s, &q, level), None);
        }
    }
    // A contact position where X is far behind but still has shots.
    let behind = sides(
        &[(24, 2), (22, 2), (13, 5), (8, 3), (6, 3)],
        &[(6, 5), (5, 3), (4, 4), (2, 2), (11, 1)],
    );
    assert_eq!(
        offer(&mut s, &before_roll(behind, money()), Level::Expert),
        None
    );
    // A race X is very likely to lose but may still win with doubles: no offer.
    let long_shot = sides(&[(6, 2), (5, 2)], &[(2, 1), (1, 1)]);
    let q = before_roll(long_shot, money());
    let eval = cubeful_engine::analysis::hint::evaluate(
        &mut s,
        &q.position,
        &q.state,
        false,
        &Level::Expert.settings(),
    );
    assert!(
        eval.probabilities.win > 0.001 && eval.probabilities.win < 0.2,
        "{eval:?}"
    );
    assert_eq!(offer(&mut s, &q, Level::Expert), None);
    // The opponent is sure to win, and a gammon only if X fails to bear a checker off this
    // roll: no offer is worth it.
    let some_gammons = sides(&[(6, 15)], &[(1, 1)]);
    let q = before_roll(some_gammons, money());
    let eval = cubeful_engine::analysis::hint::evaluate(
        &mut s,
        &q.position,
        &q.state,
        false,
        &Level::Expert.settings(),
    );
    assert!(
        eval.probabilities.lose_gammon > 0.02 && eval.probabilities.lose_gammon < 0.98,
        "{eval:?}"
    );
    for level in [Level::Expert, Level::WorldClass] {
        assert_eq!(offer(&mut s, &q, level), None, "{eval:?}");
    }
    // After a roll that bears a checker off, a single game; after one that cannot, never a
    // single game (a gammon if the evaluation is sure enough of it).
    let q = with_dice(some_gammons, money(), Dice::new(6, 1).unwrap());
    assert_eq!(offer(&mut s, &q, Level::Expert), Some(Resignation::Single));
    let q = with_dice(some_gammons, money(), Dice::new(1, 1).unwrap());
    assert!(matches!(
        offer(&mut s, &q, Level::Expert),
        None | Some(Resignation::Gammon)
    ));
}

#[test]
fn in_a_match_the_score_decides_what_a_gammon_is_worth() {
    let mut s = search();
    let settings = Level::Expert.settings();
    // 5-point match, O at match point, post-Crawford: X loses the match whatever he loses,
    // so the smallest offer does, even with a sure gammon against him.
    let post_crawford = MatchState {
        on_roll: X,
        turn: X,
        score: [4, 1],
        ..MatchState::new_match(5)
    };
    for position in [sure_gammon(), hopeless_race()] {
        let q = before_roll(position, post_crawford);
        assert_eq!(
            consistent_offer(&mut s, &q, &settings),
            Some(Resignation::Single)
        );
    }
    // The Crawford game at the same score: the same.
    let crawford = MatchState {
        crawford: true,
        ..post_crawford
    };
    let q = before_roll(sure_gammon(), crawford);
    assert_eq!(
        consistent_offer(&mut s, &q, &settings),
        Some(Resignation::Single)
    );
    // At 0-0 in a 7-point match the gammon counts: X offers a gammon.
    let open = MatchState {
        on_roll: X,
        turn: X,
        ..MatchState::new_match(7)
    };
    let q = before_roll(sure_gammon(), open);
    assert_eq!(
        consistent_offer(&mut s, &q, &settings),
        Some(Resignation::Gammon)
    );
    let q = before_roll(hopeless_race(), open);
    assert_eq!(
        consistent_offer(&mut s, &q, &settings),
        Some(Resignation::Single)
    );
    // O needs two points with the cube at 2 (owned by X): a single game wins O the match.
    let cube_two = MatchState {
        cube_log2: 1,
        cube_owner: CubeOwner::Owned(X),
        score: [3, 0],
        ..open
    };
    let q = before_roll(
        sure_gammon(),
        MatchState {
            match_length: 5,
            ..cube_two
        },
    );
    assert_eq!(
        consistent_offer(&mut s, &q, &settings),
        Some(Resignation::Single)
    );
}

/// Every offer the bot makes in positions met in play is accepted by the bot answering it at
/// the same settings, and is the smallest such.
#[test]
fn offers_agree_with_the_answers_all_through_games() {
    let mut s = search();
    let settings = Level::Expert.settings();
    let player = Bot::new(Level::Expert);
    let mut offers = 0;
    let mut asked = 0;
    for (rules, seed) in [
        (Rules::money(), 3),
        (Rules::match_to(5), 4),
        (Rules::money(), 8),
    ] {
        let mut g = Game::new(rules, Box::new(RandomDice::new(seed))).unwrap();
        g.new_game().unwrap();
        let mut actions = 0;
        while let Some((p, action)) = player.choose(&g, &mut s) {
            if matches!(g.decision(), Decision::Roll { .. } | Decision::Move { .. }) {
                let q = Query::from_game(&g).unwrap();
                asked += 1;
                let rejected = rejected_offer(&g, p);
                let r = resignation_offer(&mut s, &q, rejected, &settings);
                if let Some(r) = r {
                    offers += 1;
                    assert_eq!(action, Action::Resign(r));
                    assert!(accepts(&mut s, &q, r, &settings));
                } else {
                    assert!(!matches!(action, Action::Resign(_)), "{action:?}");
                }
            }
            g.apply(p, action).unwrap();
            actions += 1;
            assert!(actions < 5_000);
        }
        assert!(g.outcome().is_some());
    }
    assert!(asked > 50, "{asked}");
    // Not every game ends in a hopeless position; the count is only reported.
    eprintln!("{offers} offers in {asked} turns");
}

/// Through a game: the bot offers, the opponent rejects, the bot plays on without offering the
/// same again; the bot as opponent accepts the offer.
#[test]
fn offers_in_a_game_are_not_repeated_after_a_rejection() {
    let mut s = search();
    let bot = Bot::new(Level::Expert);
    let state = MatchState {
        on_roll: X,
        turn: X,
        ..MatchState::new_match(7)
    };
    let mut g = Game::from_position(
        Rules::match_to(7),
        hopeless_race(),
        state,
        Box::new(RandomDice::new(1)),
    )
    .unwrap();
    assert_eq!(rejected_offer(&g, X), None);
    assert_eq!(
        bot.choose(&g, &mut s),
        Some((X, Action::Resign(Resignation::Single)))
    );
    g.apply(X, Action::Resign(Resignation::Single)).unwrap();
    // The bot answering for O accepts what it offered.
    assert_eq!(bot.choose(&g, &mut s), Some((O, Action::AcceptResignation)));
    g.apply(O, Action::RejectResignation).unwrap();
    assert_eq!(rejected_offer(&g, X), Some(Resignation::Single));
    assert_eq!(rejected_offer(&g, O), None);
    // X plays on: rolls, then plays his dice, with no offer in between.
    assert_eq!(bot.choose(&g, &mut s), Some((X, Action::Roll)));
    g.apply(X, Action::Roll).unwrap();
    let (p, action) = bot.choose(&g, &mut s).unwrap();
    assert_eq!(p, X);
    assert!(matches!(action, Action::Move(_)), "{action:?}");
    // The query-only entry agrees with the game-based one.
    let q = Query::from_game(&g).unwrap();
    assert_eq!(
        bot.decide_or_resign(&q, false, Some(Resignation::Single), &mut s),
        Some((X, action))
    );
    assert_eq!(
        bot.decide_or_resign(&q, false, None, &mut s),
        Some((X, Action::Resign(Resignation::Single)))
    );
    // The rules refuse what the game says was rejected, and allow more.
    let mut probe = g.clone();
    assert!(probe.resign(X, Resignation::Single).is_err());
    assert!(probe.resign(X, Resignation::Gammon).is_ok());
    // A new game forgets the rejection.
    g.apply(X, action).unwrap();
    while g.outcome().is_none() {
        let (p, a) = bot.choose(&g, &mut s).unwrap();
        assert_ne!(a, Action::Resign(Resignation::Single));
        g.apply(p, a).unwrap();
    }
    g.new_game().unwrap();
    assert_eq!(rejected_offer(&g, X), None);
}
