//! The tutor's transitions, with the engine's jobs run in place of the pool.

use cubeful_engine::formats::notation::format_move;
use cubeful_engine::game::Decision;
use cubeful_engine::{legal_moves, xgid, Dice, LegalMove, MatchState, Position};

use super::*;
use crate::controller::tests::Worker;
use crate::controller::{Controls, MoveProgress, Preferences};
use crate::session::{MatchSetup, Opponent};

const ANN: Player = Player::One;

fn tutor(on: bool) -> TutorSettings {
    TutorSettings {
        on,
        level: Level::Expert,
        threshold: Skill::Bad,
    }
}

/// A money session from the starting position, Ann (at the bottom) to play 31, against the
/// bot, with the tutor `on`.
fn ann_plays_31(on: bool) -> Controller {
    let mut c = Controller::new(Preferences {
        animate: false,
        auto_forced_moves: false,
        auto_next_game: false,
    });
    c.set_tutor(tutor(on));
    // A session to take the players from: Ann against the bot.
    let setup = MatchSetup {
        length: 0,
        opponent: Opponent::Bot(Level::Beginner),
        names: ["Ann".into(), "Bot".into()],
        seed: Some(1),
        ..MatchSetup::default()
    };
    c.new_match(setup);
    let mut state = MatchState::money();
    state.on_roll = ANN;
    state.turn = ANN;
    state.dice = Some(Dice::new(3, 1).unwrap());
    let fx = c.paste_position(&xgid::encode(&Position::starting(), &state));
    assert!(jobs_of(&fx).is_empty(), "{fx:?}");
    assert_eq!(c.state(), State::HumanToAct);
    c
}

/// Ann's play of 31 written `text` in GNU Backgammon's notation.
fn play(c: &Controller, text: &str) -> LegalMove {
    let position = c.session().unwrap().game().position();
    let plays = legal_moves(&position, Dice::new(3, 1).unwrap());
    let texts: Vec<String> = plays
        .iter()
        .map(|m| format_move(&position, &m.mv))
        .collect();
    let i = texts
        .iter()
        .position(|t| t == text)
        .unwrap_or_else(|| panic!("no play {text} among {texts:?}"));
    plays[i]
}

fn jobs_of(fx: &[Effect]) -> Vec<&Job> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Submit(job) => Some(job),
            _ => None,
        })
        .collect()
}

/// The one job of `fx`, taken out.
fn take_job(fx: Vec<Effect>) -> Job {
    let mut jobs: Vec<Job> = fx
        .into_iter()
        .filter_map(|e| match e {
            Effect::Submit(job) => Some(job),
            _ => None,
        })
        .collect();
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    jobs.remove(0)
}

fn warnings(fx: &[Effect]) -> Vec<TutorUpdate> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Tutor(u) => Some(u.clone()),
            _ => None,
        })
        .collect()
}

fn position_id(c: &Controller) -> String {
    cubeful_engine::position_id::encode(&c.session().unwrap().game().position())
}

/// Ann plays `text` with the tutor on: the judgement job, then its answer.
fn judged(c: &mut Controller, worker: &mut Worker, text: &str) -> Vec<Effect> {
    let mv = play(c, text);
    let fx = c.finish_move(&mv);
    let job = take_job(fx);
    assert!(
        matches!(&job.kind, JobKind::Hint { level: Level::Expert, query } if query.question == Question::Move(Dice::new(3, 1).unwrap())),
        "{job:?}"
    );
    assert_eq!(c.state(), State::Tutoring { job: job.id });
    assert_eq!(c.tutor_job(), Some(job.id));
    let reply = worker.run(job);
    c.reply(reply)
}

#[test]
fn a_blunder_is_warned_about_and_can_be_reconsidered_or_kept() {
    let mut worker = Worker::new();
    let mut c = ann_plays_31(true);
    let start = position_id(&c);
    let fx = judged(&mut c, &mut worker, "6/5 6/3");
    let warned = warnings(&fx);
    let [TutorUpdate::Warn(j)] = warned.as_slice() else {
        panic!("one warning expected: {fx:?}");
    };
    assert_eq!(j.decided, Decided::Play);
    assert!(j.skill >= Skill::Bad, "{j:?}");
    assert_eq!(j.chosen, "6/5 6/3");
    assert_eq!(j.better, "8/5 6/5");
    assert!(j.equity_lost > 0.06, "{j:?}");
    assert_eq!(j.mwc_lost, None, "money play");
    let sentence = j.sentence();
    assert!(
        sentence.starts_with("This play is ") && sentence.contains(" equity."),
        "{sentence}"
    );
    assert!(
        sentence.contains(&format!("{:.3}", j.equity_lost)),
        "{sentence}"
    );
    assert_eq!(j.better_sentence(), "The best play is 8/5 6/5.");
    assert!(jobs_of(&fx).is_empty());

    // Nothing is committed and nothing else can be while the warning waits.
    assert_eq!(position_id(&c), start);
    assert_eq!(c.tutor_warning(), Some(j));
    assert_eq!(
        c.status(MoveProgress::default()),
        "The tutor warns: reconsider or keep your choice."
    );
    let progress = MoveProgress {
        started: true,
        complete: true,
    };
    assert_eq!(c.controls(progress).buttons, Controls::default().buttons);
    assert!(!c.controls(progress).finish_move);
    assert!(c.finish_move(&play(&c, "8/5 6/5")).is_empty());
    assert!(c.double().is_empty());
    assert_eq!(position_id(&c), start);

    // Reconsider: Ann is to play the same roll again.
    let fx = c.tutor_reconsider();
    assert!(
        warnings(&fx).is_empty() && jobs_of(&fx).is_empty(),
        "{fx:?}"
    );
    assert_eq!(c.state(), State::HumanToAct);
    assert_eq!(c.tutor_warning(), None);
    assert_eq!(position_id(&c), start);
    assert!(matches!(
        c.session().unwrap().game().decision(),
        Decision::Move { player: ANN, .. }
    ));
    // A second word is ignored.
    assert!(c.tutor_keep().is_empty());

    // The same blunder again, kept this time: it is committed and the bot is to play.
    let fx = judged(&mut c, &mut worker, "6/5 6/3");
    assert_eq!(warnings(&fx).len(), 1);
    let fx = c.tutor_keep();
    assert_eq!(warnings(&fx), [TutorUpdate::Close]);
    assert_ne!(position_id(&c), start);
    assert!(
        c.session()
            .unwrap()
            .log()
            .iter()
            .any(|l| l.contains("6/5 6/3")),
        "{:?}",
        c.session().unwrap().log()
    );
    let bot = take_job(fx);
    assert!(matches!(bot.kind, JobKind::Bot { .. }), "{bot:?}");
    assert!(matches!(c.state(), State::BotThinking { .. }));
}

#[test]
fn a_good_play_goes_ahead_without_a_warning() {
    let mut worker = Worker::new();
    let mut c = ann_plays_31(true);
    let start = position_id(&c);
    let fx = judged(&mut c, &mut worker, "8/5 6/5");
    assert!(warnings(&fx).is_empty(), "{fx:?}");
    assert_ne!(position_id(&c), start, "the play is committed");
    assert!(matches!(c.state(), State::BotThinking { .. }));
    assert_eq!(c.tutor_job(), None);
}

#[test]
fn with_the_tutor_off_nothing_is_judged() {
    let mut c = ann_plays_31(false);
    let start = position_id(&c);
    let mv = play(&c, "6/5 6/3");
    let fx = c.finish_move(&mv);
    assert!(warnings(&fx).is_empty());
    let jobs = jobs_of(&fx);
    assert!(
        jobs.iter().all(|j| matches!(j.kind, JobKind::Bot { .. })),
        "{jobs:?}"
    );
    assert_ne!(position_id(&c), start, "committed at once");
}

#[test]
fn a_dropped_judgement_and_a_late_answer_change_nothing() {
    let mut worker = Worker::new();
    let mut c = ann_plays_31(true);
    let mv = play(&c, "6/5 6/3");
    let job = take_job(c.finish_move(&mv));
    // Another position pasted meanwhile: the judgement is cancelled, its answer dropped.
    let mut state = MatchState::money();
    state.on_roll = ANN;
    state.turn = ANN;
    state.dice = Some(Dice::new(6, 5).unwrap());
    c.paste_position(&xgid::encode(&Position::starting(), &state));
    assert_eq!(c.state(), State::HumanToAct);
    assert_eq!(c.tutor_job(), None);
    let pasted = position_id(&c);
    let reply = worker.run(job);
    assert!(matches!(reply, Reply::Cancelled { .. }), "{reply:?}");
    assert!(c.reply(reply).is_empty());
    assert_eq!(c.state(), State::HumanToAct);
    assert_eq!(position_id(&c), pasted);

    // A warning shown when the match is replaced is closed.
    let mut c = ann_plays_31(true);
    let fx = judged(&mut c, &mut worker, "6/5 6/3");
    assert_eq!(warnings(&fx).len(), 1);
    let fx = c.paste_position(&xgid::encode(&Position::starting(), &state));
    assert_eq!(warnings(&fx), [TutorUpdate::Close]);
    assert_eq!(c.tutor_warning(), None);
}

#[test]
fn turning_the_tutor_off_keeps_the_action_waiting() {
    let mut worker = Worker::new();
    let mut c = ann_plays_31(true);
    let start = position_id(&c);
    let fx = judged(&mut c, &mut worker, "6/5 6/3");
    assert_eq!(warnings(&fx).len(), 1);
    let fx = c.set_tutor(tutor(false));
    assert_eq!(warnings(&fx), [TutorUpdate::Close]);
    assert_ne!(position_id(&c), start);
}

#[test]
fn a_hopeless_take_is_warned_about() {
    let mut worker = Worker::new();
    let mut c = ann_plays_31(true);
    // The bot (on roll) bears off its last two checkers next roll; it has doubled Ann, who
    // still has all fifteen checkers far from home.
    let mut bot = [0u8; 25];
    bot[1] = 1;
    bot[2] = 1;
    let mut ann = [0u8; 25];
    ann[24] = 5;
    ann[13] = 10;
    let position = Position::from_sides(&bot, &ann).unwrap();
    let mut state = MatchState::money();
    state.on_roll = Player::Zero;
    state.turn = ANN;
    state.doubled = true;
    c.paste_position(&xgid::encode(&position, &state));
    assert!(
        matches!(
            c.session().unwrap().game().decision(),
            Decision::AnswerDouble { player: ANN, .. }
        ),
        "{:?}",
        c.session().unwrap().game().decision()
    );
    let job = take_job(c.take());
    assert!(matches!(c.state(), State::Tutoring { .. }));
    let fx = c.reply(worker.run(job));
    let warned = warnings(&fx);
    let [TutorUpdate::Warn(j)] = warned.as_slice() else {
        panic!("one warning expected: {fx:?}");
    };
    assert_eq!(j.decided, Decided::Take);
    assert_eq!(j.skill, Skill::VeryBad);
    assert_eq!(j.better, "drop");
    assert!(j.sentence().starts_with("Taking is very bad here"), "{j:?}");
    // Reconsidered, Ann drops: that is no mistake, the game is over at once.
    c.tutor_reconsider();
    let job = take_job(c.drop_double());
    let fx = c.reply(worker.run(job));
    assert!(warnings(&fx).is_empty(), "{fx:?}");
    assert!(!matches!(
        c.session().unwrap().game().decision(),
        Decision::AnswerDouble { .. }
    ));
}

#[test]
fn a_hopeless_double_and_a_needless_resignation_are_warned_about() {
    let mut worker = Worker::new();
    let mut c = ann_plays_31(true);
    // Ann, on roll before her roll with the cube in the middle, has all fifteen checkers far
    // from home; the bot bears off its last two checkers next roll.
    let mut bot = [0u8; 25];
    bot[1] = 1;
    bot[2] = 1;
    let mut ann = [0u8; 25];
    ann[24] = 5;
    ann[13] = 10;
    let position = Position::from_sides(&ann, &bot).unwrap();
    let mut state = MatchState::money();
    state.on_roll = ANN;
    state.turn = ANN;
    c.paste_position(&xgid::encode(&position, &state));
    assert!(
        matches!(
            c.session().unwrap().game().decision(),
            Decision::Roll {
                player: ANN,
                may_double: true
            }
        ),
        "{:?}",
        c.session().unwrap().game().decision()
    );
    let job = take_job(c.double());
    let fx = c.reply(worker.run(job));
    let warned = warnings(&fx);
    let [TutorUpdate::Warn(j)] = warned.as_slice() else {
        panic!("one warning expected: {fx:?}");
    };
    assert_eq!(j.decided, Decided::Double);
    assert_eq!(j.skill, Skill::VeryBad);
    assert_eq!(j.better, "no double");
    assert!(j.equity_lost > 0.5, "{j:?}");
    assert!(c.tutor_reconsider().is_empty());
    assert!(!c.session().unwrap().game().match_state().doubled);

    // In the opening position, resigning a single game costs nearly a whole point.
    let mut c = ann_plays_31(true);
    let job = take_job(c.resign(cubeful_engine::Resignation::Single));
    assert!(
        matches!(&job.kind, JobKind::Hint { query, .. }
            if matches!(query.question, Question::AnswerResignation(_))),
        "{job:?}"
    );
    let fx = c.reply(worker.run(job));
    let warned = warnings(&fx);
    let [TutorUpdate::Warn(j)] = warned.as_slice() else {
        panic!("one warning expected: {fx:?}");
    };
    assert_eq!(j.decided, Decided::Resign);
    assert_eq!(j.skill, Skill::VeryBad);
    assert_eq!(j.better, "play on");
    assert!(j.equity_lost > 0.5, "{j:?}");
    assert_eq!(j.better_sentence(), "The better choice: play on.");
    // Kept: the offer is made.
    c.tutor_keep();
    assert!(c.session().unwrap().game().match_state().resigned.is_some());
}

#[test]
fn a_missed_double_is_warned_about_when_rolling() {
    let mut worker = Worker::new();
    let mut c = ann_plays_31(true);
    // Ann, before her roll with the cube in the middle, leads a long race by 14 pips (100 to
    // 114): double, pass. She rolls instead. (At 100 to 120 the 0-ply race net is so sure of
    // the race that not doubling is merely doubtful there.)
    let race = Position::from_points(&[(8, 5), (7, 5), (5, 5)], &[(8, 5), (9, 3), (7, 5), (6, 2)])
        .unwrap();
    let mut state = MatchState::money();
    state.on_roll = ANN;
    state.turn = ANN;
    c.paste_position(&xgid::encode(&race, &state));
    let start = position_id(&c);
    let job = take_job(c.roll());
    assert!(
        matches!(&job.kind, JobKind::Hint { query, .. } if query.question == Question::Cube),
        "{job:?}"
    );
    assert_eq!(c.state(), State::Tutoring { job: job.id });
    let fx = c.reply(worker.run(job));
    let warned = warnings(&fx);
    let [TutorUpdate::Warn(j)] = warned.as_slice() else {
        panic!("one warning expected: {fx:?}");
    };
    assert_eq!(j.decided, Decided::Roll);
    assert!(j.skill >= Skill::Bad, "{j:?}");
    assert_eq!(j.chosen, "no double");
    assert_eq!(j.better, "double");
    assert!(
        j.sentence().starts_with("Not doubling is ") && j.sentence().contains(" equity."),
        "{j:?}"
    );
    assert_eq!(j.better_sentence(), "The better choice: double.");
    // Nothing rolled while the warning waits.
    assert!(c.session().unwrap().game().match_state().dice.is_none());

    // Reconsidered, Ann doubles: that is right, the bot is asked to answer.
    assert!(c.tutor_reconsider().is_empty());
    let job = take_job(c.double());
    let fx = c.reply(worker.run(job));
    assert!(warnings(&fx).is_empty(), "{fx:?}");
    assert!(c.session().unwrap().game().match_state().doubled);

    // The same roll again, kept: the dice are rolled and Ann is to play them.
    let mut c = ann_plays_31(true);
    c.paste_position(&xgid::encode(&race, &state));
    let job = take_job(c.roll());
    assert_eq!(warnings(&c.reply(worker.run(job))).len(), 1);
    let fx = c.tutor_keep();
    assert_eq!(warnings(&fx), [TutorUpdate::Close]);
    assert_eq!(position_id(&c), start);
    assert!(matches!(
        c.session().unwrap().game().decision(),
        Decision::Move { player: ANN, .. }
    ));

    // In the opening position rolling is right: judged, then rolled without a warning.
    let mut c = ann_plays_31(true);
    c.paste_position(&xgid::encode(&Position::starting(), &state));
    let job = take_job(c.roll());
    let fx = c.reply(worker.run(job));
    assert!(warnings(&fx).is_empty(), "{fx:?}");
    assert!(c.session().unwrap().game().match_state().dice.is_some());
}

#[test]
fn the_tutor_settings_are_read_from_the_settings_file() {
    // Off by default at the hint's default level, warning from "bad"; an older file without
    // the tutor's fields loads with those defaults.
    let old: Settings = ron::from_str("(player_name: \"Bo\")").unwrap();
    assert_eq!(
        TutorSettings::from(&old),
        TutorSettings {
            on: false,
            level: Level::WorldClass,
            threshold: Skill::Bad,
        }
    );
    let s: Settings =
        ron::from_str("(tutor: true, tutor_level: \"expert\", tutor_threshold: VeryBad)").unwrap();
    assert_eq!(
        TutorSettings::from(&s),
        TutorSettings {
            on: true,
            level: Level::Expert,
            threshold: Skill::VeryBad,
        }
    );
    let text = ron::ser::to_string(&s).unwrap();
    assert_eq!(ron::from_str::<Settings>(&text).unwrap(), s);
}
