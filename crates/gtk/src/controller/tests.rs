//! The controller's transitions, with the engine's jobs run in place of the pool.

use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

use cubeful_engine::analysis::bot::Bot;
use cubeful_engine::eval::Nets;
use cubeful_engine::game::match_state::{GameState, MatchState};
use cubeful_engine::game::{Game, Rules, ScriptedDice};
use cubeful_engine::search::Search;
use cubeful_engine::{legal_moves, Side};

use super::*;
use crate::jobs;

const ANN: Player = Player::One;
const BOT: Player = Player::Zero;

pub(super) fn nets() -> Arc<Nets> {
    static NETS: OnceLock<Arc<Nets>> = OnceLock::new();
    NETS.get_or_init(|| Arc::new(Nets::embedded())).clone()
}

/// No animations, nothing automatic: every step is the test's.
const PLAIN: Preferences = Preferences {
    animate: false,
    auto_forced_moves: false,
    auto_next_game: false,
};

fn setup(length: u16, opponent: Opponent, seed: u64) -> MatchSetup {
    MatchSetup {
        length,
        opponent,
        names: ["Ann".into(), "Bot".into()],
        seed: Some(seed),
        ..MatchSetup::default()
    }
}

/// The engine's side of the window: runs the jobs the controller submits, as a worker would.
pub(super) struct Worker {
    search: Search,
    replies: async_channel::Sender<Reply>,
    _receiver: async_channel::Receiver<Reply>,
}

impl Worker {
    pub(super) fn new() -> Worker {
        let (replies, receiver) = async_channel::unbounded();
        Worker {
            search: Search::new(nets()),
            replies,
            _receiver: receiver,
        }
    }

    pub(super) fn run(&mut self, job: Job) -> Reply {
        jobs::run(&mut self.search, job, &self.replies)
    }
}

/// The jobs among `fx`, and the other effects.
fn split(fx: Vec<Effect>) -> (Vec<Job>, Vec<Effect>) {
    let mut jobs = Vec::new();
    let mut rest = Vec::new();
    for e in fx {
        match e {
            Effect::Submit(job) => jobs.push(job),
            other => rest.push(other),
        }
    }
    (jobs, rest)
}

/// The only job among `fx`.
fn one_job(fx: Vec<Effect>) -> Job {
    let (mut jobs, _) = split(fx);
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    jobs.remove(0)
}

fn hint_updates(fx: &[Effect]) -> Vec<HintUpdate> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Hint(h) => Some(h.clone()),
            _ => None,
        })
        .collect()
}

fn game(c: &Controller) -> &Game {
    c.session().expect("a match").game()
}

/// A match against the bot in which Ann moves first (the first seed from 1 that gives it).
fn ann_moves_first(prefs: Preferences, length: u16) -> Controller {
    for seed in 1.. {
        let mut c = Controller::new(prefs);
        let fx = c.new_match(setup(length, Opponent::Bot(Level::Beginner), seed));
        if c.state() == State::HumanToAct {
            assert!(split(fx).0.is_empty(), "nothing for the engine to do");
            return c;
        }
    }
    unreachable!()
}

/// Ann plays the best play of her roll (the engine's first legal play).
fn ann_moves(c: &mut Controller) -> Vec<Effect> {
    let (player, dice) = c.session().unwrap().human_move().expect("Ann moves");
    assert_eq!(player, ANN);
    let mv = legal_moves(&game(c).position(), dice)[0];
    c.finish_move(&mv)
}

/// Runs bot jobs and shows animations until a person has to act (or the game is over).
fn until_a_person_acts(
    c: &mut Controller,
    worker: &mut Worker,
    mut fx: Vec<Effect>,
) -> Vec<Effect> {
    let mut others = Vec::new();
    for _ in 0..100 {
        let mut more = Vec::new();
        for e in fx {
            match e {
                Effect::Submit(job) if matches!(job.kind, JobKind::Bot { .. }) => {
                    let reply = worker.run(job);
                    more.extend(c.reply(reply));
                }
                Effect::Animate { token, .. } => more.extend(c.animation_done(token)),
                other => others.push(other),
            }
        }
        if more.is_empty() {
            return others;
        }
        fx = more;
    }
    panic!("the bot never stops");
}

#[test]
fn no_match_yet() {
    let mut c = Controller::default();
    assert_eq!(c.state(), State::NoMatch);
    assert!(c.display().idle);
    assert_eq!(c.display().roll, Some(Seat::Bottom));
    assert_eq!(
        c.controls(MoveProgress::default()),
        Controls {
            roll: true,
            ..Controls::default()
        }
    );
    assert!(c.status(MoveProgress::default()).contains("Ctrl+N"));
    assert_eq!(c.subtitle(), "");
    assert!(matches!(c.roll()[..], [Effect::ShowNewMatch]));
    assert!(
        c.double().is_empty() && c.take().is_empty() && c.resign(Resignation::Single).is_empty()
    );
    // A bad setup is refused with a message, and there is still no match.
    let mut bad = setup(5, Opponent::Human, 1);
    bad.length = 1000;
    let fx = c.new_match(bad);
    assert!(matches!(fx[..], [Effect::Toast(_)]), "{fx:?}");
    assert!(c.session().is_none());
    assert_eq!(c.state(), State::NoMatch);
}

#[test]
fn human_to_move_then_the_bot_thinks() {
    let mut c = ann_moves_first(PLAIN, 5);
    let mut worker = Worker::new();
    assert!(!c.is_busy());
    let d = c.display();
    assert_eq!(d.turn, Some(Seat::Bottom));
    assert_eq!(d.dice.map(|(seat, _)| seat), Some(Seat::Bottom));
    assert!(c
        .subtitle()
        .starts_with("Match to 5 points · Ann 0 – 0 Bot"));

    // The move is made on the board: Finish and Undo follow its progress, and so does the
    // status line.
    let none = MoveProgress::default();
    let partial = MoveProgress {
        started: true,
        complete: false,
    };
    let complete = MoveProgress {
        started: true,
        complete: true,
    };
    let controls = c.controls(none);
    assert!(controls.buttons.finish_move && !controls.finish_move && !controls.undo);
    assert!(controls.resign && controls.hint && !controls.roll && !controls.double);
    assert!(c.controls(partial).undo && !c.controls(partial).finish_move);
    assert!(c.controls(complete).finish_move);
    assert!(c.cube_clicked(true).is_empty() && c.cube_clicked(false).is_empty());
    assert!(c.status(none).contains("drag the checkers"));
    assert_eq!(c.status(partial), c.status(none));
    assert_eq!(
        c.status(complete),
        "Ann: the move is complete — click the dice (Ctrl+F) to play it."
    );

    // Ann plays: the bot thinks about its cube decision with the position, the match state
    // and the rules.
    let job = one_job(ann_moves(&mut c));
    let Decision::Roll { player, may_double } = game(&c).decision() else {
        panic!("{:?}", game(&c).decision());
    };
    assert_eq!(player, BOT);
    match &job.kind {
        JobKind::Bot {
            query,
            may_double: asked,
            rejected,
            level,
        } => {
            assert_eq!(*rejected, None);
            assert_eq!(Some(*query), Query::from_game(game(&c)));
            assert_eq!(*asked, may_double);
            assert_eq!(*level, Level::Beginner);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(c.state(), State::BotThinking { job: job.id });
    assert!(c.is_busy());
    assert_eq!(
        c.controls(complete),
        Controls {
            hint: true,
            ..Controls::default()
        },
        "nobody acts while the bot thinks"
    );
    let d = c.display();
    assert_eq!(
        d.prompt.as_ref().map(|(seat, text)| (*seat, text.as_str())),
        Some((Seat::Top, "Thinking…"))
    );
    // Ann's dice stay on the board until the bot rolls.
    assert_eq!(d.dice.map(|(seat, _)| seat), Some(Seat::Bottom));
    assert!(c.status(complete).contains("Bot"));
    // Nothing Ann does counts now.
    let before = game(&c).match_state();
    assert!(c.roll().is_empty() && c.double().is_empty() && c.drop_double().is_empty());
    assert!(c
        .finish_move(&legal_moves(&Position::starting(), "21".parse().unwrap())[0])
        .is_empty());
    assert_eq!(game(&c).match_state(), before);
    assert_eq!(c.state(), State::BotThinking { job: job.id });

    // The answer comes: the bot rolls (or doubles) and plays; then it is Ann's turn.
    let fx = c.reply(worker.run(job));
    let others = until_a_person_acts(&mut c, &mut worker, fx);
    assert!(others.is_empty(), "{others:?}");
    assert_eq!(c.state(), State::HumanToAct);
    assert_eq!(c.session().unwrap().human_to_act(), Some(ANN));
    assert!(c.log_has("Bot plays") || c.log_has("Bot doubles") || c.log_has("cannot move"));
}

impl Controller {
    fn log_has(&self, text: &str) -> bool {
        self.session()
            .is_some_and(|s| s.log().iter().any(|l| l.contains(text)))
    }
}

#[test]
fn the_bots_move_is_animated_and_its_dice_stay() {
    let prefs = Preferences {
        animate: true,
        ..PLAIN
    };
    let mut worker = Worker::new();
    // Seeds until the bot rolls and moves without doubling (a beginner may).
    for seed in 1..50 {
        let mut c = Controller::new(prefs);
        let fx = c.new_match(setup(5, Opponent::Bot(Level::Beginner), seed));
        if c.state() != State::HumanToAct {
            continue;
        }
        assert!(split(fx).0.is_empty());
        let mut fx = ann_moves(&mut c);
        // The bot's cube decision, then its move.
        let mut animation = None;
        for _ in 0..3 {
            let job = one_job(fx);
            fx = c.reply(worker.run(job));
            if let Some(Effect::Animate {
                token, seat, mv, ..
            }) = fx.first()
            {
                animation = Some((*token, *seat, mv.mv));
                break;
            }
            if c.state() == State::HumanToAct {
                break; // it doubled, or could not move
            }
        }
        let Some((token, seat, mv)) = animation else {
            continue;
        };
        assert_eq!(seat, Seat::Top);
        assert!(!mv.is_empty());
        assert_eq!(c.state(), State::Animating { token });
        assert!(c.is_busy() && c.is_animating());
        // The game has moved on (Ann is to roll) but nobody acts before the move is shown.
        assert_eq!(c.session().unwrap().human_to_act(), Some(ANN));
        assert!(c.roll().is_empty() && c.double().is_empty());
        assert_eq!(
            c.controls(MoveProgress::default()).buttons,
            Buttons::default()
        );
        // The end of another animation changes nothing.
        assert!(c.animation_done(token + 1).is_empty());
        assert_eq!(c.state(), State::Animating { token });
        assert!(c.animation_done(token).is_empty());
        assert_eq!(c.state(), State::HumanToAct);
        // The bot's dice stay visible in its half until Ann rolls.
        let bot_dice = match c
            .session()
            .unwrap()
            .log()
            .iter()
            .rev()
            .find(|l| l.starts_with("Bot rolls"))
        {
            Some(l) => l.clone(),
            None => panic!("the bot rolled"),
        };
        let d = c.display();
        let (dice_seat, dice) = d.dice.expect("dice on the board");
        assert_eq!(dice_seat, Seat::Top);
        assert!(bot_dice.contains(&crate::session::dice_text(dice)));
        let controls = c.controls(MoveProgress::default());
        assert!(controls.roll && controls.buttons.roll && controls.resign);
        c.roll();
        assert_eq!(c.display().dice.map(|(seat, _)| seat), Some(Seat::Bottom));
        return;
    }
    panic!("no seed where the bot just moves");
}

#[test]
fn manual_dice_are_asked_for() {
    let mut c = Controller::new(PLAIN);
    let mut worker = Worker::new();
    let mut st = setup(5, Opponent::Bot(Level::Beginner), 1);
    st.manual_dice = true;
    let fx = c.new_match(st);
    assert!(matches!(fx[..], [Effect::AskDice { name: None }]), "{fx:?}");
    assert_eq!(
        c.state(),
        State::EnterDice {
            player: None,
            asking: true
        }
    );
    assert!(
        !c.controls(MoveProgress::default()).roll,
        "the dialog is open"
    );
    // Cancelled: Roll asks again.
    assert!(c.dice_entered(None).is_empty());
    assert_eq!(
        c.state(),
        State::EnterDice {
            player: None,
            asking: false
        }
    );
    let controls = c.controls(MoveProgress::default());
    assert!(controls.roll && controls.buttons.roll);
    assert!(matches!(c.roll()[..], [Effect::AskDice { name: None }]));
    // The opening roll: the bot (top) throws 3, Ann 5: Ann starts with 5-3.
    assert!(split(c.dice_entered(Some(Dice::new(3, 5).unwrap())))
        .0
        .is_empty());
    assert_eq!(c.state(), State::HumanToAct);
    assert_eq!(
        game(&c).decision(),
        Decision::Move {
            player: ANN,
            dice: Dice::new(5, 3).unwrap()
        }
    );
    // Answers of a closed dialog are ignored.
    assert!(c.dice_entered(Some(Dice::new(1, 1).unwrap())).is_empty());
    assert_eq!(c.state(), State::HumanToAct);

    // After Ann's move the bot decides about the cube, then its roll is asked for.
    let job = one_job(ann_moves(&mut c));
    let fx = c.reply(worker.run(job));
    match c.state() {
        State::EnterDice {
            player: Some(BOT),
            asking: true,
        } => {
            assert!(matches!(&fx[..], [Effect::AskDice { name: Some(n) }] if n == "Bot"));
        }
        State::HumanToAct => {
            // A beginner may double: Ann is asked to answer.
            assert!(matches!(game(&c).decision(), Decision::AnswerDouble { .. }));
            return;
        }
        other => panic!("{other:?}"),
    }
    // Cancelled: the bot's roll waits for Roll.
    c.dice_entered(None);
    assert_eq!(
        c.state(),
        State::EnterDice {
            player: Some(BOT),
            asking: false
        }
    );
    let controls = c.controls(MoveProgress::default());
    assert!(
        controls.roll && !controls.buttons.roll,
        "Roll, but no roll button of Ann's"
    );
    assert!(matches!(&c.roll()[..], [Effect::AskDice { name: Some(_) }]));
    // The bot's dice: it moves.
    let job = one_job(c.dice_entered(Some(Dice::new(6, 1).unwrap())));
    assert!(matches!(job.kind, JobKind::Bot { .. }));
    assert_eq!(
        game(&c).decision(),
        Decision::Move {
            player: BOT,
            dice: Dice::new(6, 1).unwrap()
        }
    );
    let fx = c.reply(worker.run(job));
    assert!(fx.is_empty(), "{fx:?}");
    // Ann's own roll with manual dice: asked for; cancelled, she is back to her decision.
    assert_eq!(c.state(), State::HumanToAct);
    assert!(matches!(&c.roll()[..], [Effect::AskDice { name: Some(n) }] if n == "Ann"));
    c.dice_entered(None);
    assert_eq!(c.state(), State::HumanToAct);
    // Impossible dice cannot be entered: the dialog only offers 1 to 6. Good dice play on.
    c.roll();
    c.dice_entered(Some(Dice::new(4, 2).unwrap()));
    assert_eq!(
        game(&c).decision(),
        Decision::Move {
            player: ANN,
            dice: Dice::new(4, 2).unwrap()
        }
    );
}

/// Plays a whole match through the controller, Ann's decisions made by a bot through the
/// same calls the window makes; checks that nothing can be done while the engine works and
/// that games and the match end as they should.
/// What happened in a match played by [`play_match`].
struct Played {
    /// The states the controller settled in, in order (repeats removed).
    states: Vec<State>,
    /// Results told.
    results: usize,
    /// Games played.
    games: usize,
    /// Timers that started the next game.
    timers: usize,
}

fn play_match(prefs: Preferences, length: u16, seed: u64) -> Played {
    let mut c = Controller::new(prefs);
    let mut worker = Worker::new();
    let mut search = Search::new(nets());
    let ann = Bot::new(Level::Beginner);
    let mut states = Vec::new();
    let mut results = 0;
    let mut timers = 0;
    let mut fx = c.new_match(setup(length, Opponent::Bot(Level::Beginner), seed));
    for _ in 0..20_000 {
        // Carry out what the controller asked for.
        let mut more = Vec::new();
        for e in fx {
            match e {
                Effect::Submit(job) => more.extend(c.reply(worker.run(job))),
                Effect::Animate { token, .. } => {
                    assert!(c.is_animating());
                    assert_eq!(
                        c.controls(MoveProgress::default()).buttons,
                        Buttons::default()
                    );
                    more.extend(c.animation_done(token));
                }
                Effect::Timer { token, delay } => {
                    assert_eq!(delay, NEXT_GAME_DELAY);
                    assert!(matches!(c.state(), State::NextGameSoon { .. }));
                    let controls = c.controls(MoveProgress::default());
                    assert!(controls.roll && controls.buttons.next_game);
                    timers += 1;
                    more.extend(c.timer(token));
                }
                Effect::ShowResult { winner, text } => {
                    results += 1;
                    assert!(text.contains("match"), "{text}");
                    assert!(winner == "Ann" || winner == "Bot");
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        if !more.is_empty() {
            fx = more;
            continue;
        }
        let state = c.state();
        if states.last() != Some(&state) {
            states.push(state);
        }
        if !c.is_animating() {
            assert_eq!(c.display().position, c.session().unwrap().bottom_position());
        }
        fx = match state {
            State::MatchOver { winner } => {
                assert_eq!(game(&c).match_winner(), Some(winner));
                assert_eq!(
                    c.controls(MoveProgress::default()).buttons,
                    Buttons::default()
                );
                return Played {
                    states,
                    results,
                    games: game(&c).games().len(),
                    timers,
                };
            }
            State::GameOver => {
                let controls = c.controls(MoveProgress::default());
                assert!(controls.roll && controls.buttons.next_game);
                c.roll()
            }
            State::HumanToAct => {
                if game(&c).decision() == Decision::OpeningRoll {
                    c.roll()
                } else {
                    let (player, action) = ann.choose(game(&c), &mut search).unwrap();
                    assert_eq!(player, ANN);
                    match action {
                        Action::Roll => c.roll(),
                        // Cube actions by clicks on the cube, as on the board.
                        Action::Double | Action::Take => c.cube_clicked(true),
                        Action::Drop => c.cube_clicked(false),
                        Action::AcceptResignation => c.take(),
                        Action::RejectResignation => c.drop_double(),
                        Action::Beaver => c.beaver(),
                        Action::Move(mv) => {
                            let position = play_steps(&game(&c).position(), mv.steps()).unwrap();
                            c.finish_move(&LegalMove { mv, position })
                        }
                        Action::Resign(r) => c.resign(r),
                    }
                }
            }
            other => panic!("stuck in {other:?}"),
        };
        if let Some(Effect::Toast(text)) = fx.first() {
            panic!("refused: {text}");
        }
    }
    panic!("the match did not end");
}

#[test]
fn whole_matches_through_the_controller() {
    // Games that end wait for Roll; the result is told once.
    let m = play_match(PLAIN, 3, 5);
    assert_eq!(m.results, 1);
    assert!(m.states.contains(&State::HumanToAct));
    assert_eq!(m.states.contains(&State::GameOver), m.games > 1);
    assert_eq!(m.timers, 0);
    // With the next game by itself, animations and forced moves: timers instead.
    let all = Preferences {
        animate: true,
        auto_forced_moves: true,
        auto_next_game: true,
    };
    let m = play_match(all, 3, 6);
    assert_eq!(m.results, 1);
    assert!(!m.states.contains(&State::GameOver));
    assert_eq!(m.timers, m.games - 1);
}

#[test]
fn a_new_match_while_the_bot_thinks() {
    let mut c = ann_moves_first(PLAIN, 5);
    let job = one_job(ann_moves(&mut c));
    let old = job.id;
    assert_eq!(c.state(), State::BotThinking { job: old });
    let fx = c.new_match(setup(3, Opponent::Human, 2));
    assert!(split(fx).0.is_empty());
    assert!(
        job.cancel.load(Ordering::Relaxed),
        "the bot's job is cancelled"
    );
    assert_eq!(c.state(), State::HumanToAct);
    assert_eq!(c.session().unwrap().setup().opponent, Opponent::Human);
    // Its answer, should it come, is dropped.
    let fx = c.reply(Reply::Done {
        id: old,
        output: Output::Bot(Some((BOT, Action::Roll))),
    });
    assert!(fx.is_empty());
    assert_eq!(c.state(), State::HumanToAct);
    // A worker drops it anyway.
    assert!(matches!(Worker::new().run(job), Reply::Cancelled { id } if id == old));

    // A new match while a move is shown stops the animation; its end is then ignored.
    let prefs = Preferences {
        animate: true,
        ..PLAIN
    };
    let mut worker = Worker::new();
    for seed in 1..50 {
        let mut c = Controller::new(prefs);
        c.new_match(setup(5, Opponent::Bot(Level::Beginner), seed));
        if c.state() != State::HumanToAct {
            continue;
        }
        let mut fx = ann_moves(&mut c);
        for _ in 0..3 {
            let (jobs, _) = split(fx);
            let Some(job) = jobs.into_iter().next() else {
                break;
            };
            fx = c.reply(worker.run(job));
        }
        let State::Animating { token } = c.state() else {
            continue;
        };
        let fx = c.new_match(setup(5, Opponent::Human, seed));
        assert!(matches!(fx[..], [Effect::StopAnimation]), "{fx:?}");
        assert_eq!(c.state(), State::HumanToAct);
        let position = game(&c).position();
        assert!(c.animation_done(token).is_empty());
        assert_eq!(game(&c).position(), position);
        return;
    }
    panic!("no seed with an animated bot move");
}

#[test]
fn a_hint_follows_the_position() {
    let mut c = ann_moves_first(PLAIN, 5);
    let mut worker = Worker::new();
    // Opened while Ann is to move: a hint job about her move.
    let fx = c.open_hint(Level::Beginner);
    assert_eq!(hint_updates(&fx), vec![HintUpdate::Thinking]);
    let h1 = one_job(fx);
    match &h1.kind {
        JobKind::Hint { query, level } => {
            assert_eq!(Some(*query), Query::from_game(game(&c)));
            assert_eq!(*level, Level::Beginner);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(c.pending_hint(), Some(h1.id));
    // Raised again while it is worked on: nothing new.
    assert!(c.open_hint(Level::Beginner).is_empty());
    // Another level: asked again, the first one cancelled.
    let h2 = one_job(c.set_hint_level(Level::Casual));
    assert!(h1.cancel.load(Ordering::Relaxed));
    assert!(
        c.reply(Reply::Done {
            id: h1.id,
            output: Output::Hint(
                match worker.run(Job::new(
                    h1.id,
                    JobKind::Hint {
                        query: Query::from_game(game(&c)).unwrap(),
                        level: Level::Beginner,
                    }
                )) {
                    Reply::Done {
                        output: Output::Hint(h),
                        ..
                    } => h,
                    other => panic!("{other:?}"),
                }
            ),
        })
        .is_empty(),
        "the first hint's answer is dropped"
    );

    // The position changes before the answer: the hint is cancelled, nothing to show.
    let fx = ann_moves(&mut c);
    assert_eq!(hint_updates(&fx), vec![HintUpdate::Nothing]);
    assert!(h2.cancel.load(Ordering::Relaxed));
    assert_eq!(c.pending_hint(), None);
    let bot_job = one_job(fx);
    assert!(matches!(worker.run(h2), Reply::Cancelled { .. }));

    // Ann's turn again: a new hint, about her cube decision, and its answer is shown.
    let fx = c.reply(worker.run(bot_job));
    let others = until_a_person_acts(&mut c, &mut worker, fx);
    assert_eq!(c.state(), State::HumanToAct);
    let hints = hint_updates(&others);
    assert_eq!(hints.last(), Some(&HintUpdate::Thinking), "{others:?}");
    let mut hint_jobs: Vec<Job> = others
        .into_iter()
        .filter_map(|e| match e {
            Effect::Submit(job) => Some(job),
            _ => None,
        })
        .collect();
    let h3 = hint_jobs.pop().expect("a hint job");
    assert_eq!(c.pending_hint(), Some(h3.id));
    let fx = c.reply(worker.run(h3));
    match &fx[..] {
        [Effect::Hint(HintUpdate::Ready {
            mover, opponent, ..
        })] => assert_eq!((mover.as_str(), opponent.as_str()), ("Ann", "Bot")),
        other => panic!("{other:?}"),
    }
    assert_eq!(c.pending_hint(), None);
    // The same question at the same level is not asked again.
    assert!(c.set_hint_level(Level::Casual).is_empty());
    assert!(c.stop_hint().is_empty(), "nothing to stop");

    // Stopped: cancelled, and not asked again by itself, until asked (Ctrl+H) or changed.
    let h4 = one_job(c.set_hint_level(Level::Beginner));
    assert_eq!(hint_updates(&c.stop_hint()), vec![HintUpdate::Stopped]);
    assert!(h4.cancel.load(Ordering::Relaxed));
    assert!(c.set_hint_level(Level::Beginner).is_empty());
    let h5 = one_job(c.open_hint(Level::Beginner));
    // Closed: cancelled, and no more hints.
    c.close_hint();
    assert!(h5.cancel.load(Ordering::Relaxed));
    let fx = c.roll();
    assert!(hint_updates(&fx).is_empty());
    assert!(split(fx).0.is_empty());
}

#[test]
fn a_forced_move_is_played_by_itself() {
    // Ann (player 1) has one checker left, on her 2 point, and rolled 6-5: the only play.
    let mut ann = [0u8; 25];
    ann[1] = 1;
    let mut bot = [0u8; 25];
    bot[5] = 15;
    let position = Position::from_sides(&ann, &bot).unwrap();
    let state = MatchState {
        on_roll: ANN,
        turn: ANN,
        dice: Some(Dice::new(6, 5).unwrap()),
        game_state: GameState::Playing,
        ..MatchState::new_match(3)
    };
    let new_game = || {
        let g = Game::from_position(
            Rules::match_to(3),
            position,
            state,
            Box::new(ScriptedDice::parse("").unwrap()),
        )
        .unwrap();
        Session::from_game(setup(3, Opponent::Bot(Level::Beginner), 1), g)
    };
    // Without the preference Ann plays it herself.
    let mut c = Controller::new(PLAIN);
    assert!(c.resume(new_game()).is_empty());
    assert_eq!(c.state(), State::HumanToAct);
    // With it, it is played and shown.
    let prefs = Preferences {
        animate: true,
        auto_forced_moves: true,
        ..PLAIN
    };
    let mut c = Controller::new(prefs);
    let fx = c.resume(new_game());
    let token = match &fx[..] {
        [Effect::Animate {
            token,
            seat: Seat::Bottom,
            start,
            mv,
        }] => {
            assert_eq!(*start, position);
            assert_eq!(mv.mv.steps().len(), 1);
            assert_eq!(mv.position.off(Side::Player), 15);
            *token
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(c.state(), State::Animating { token });
    assert!(c.animation_done(token).is_empty());
    assert_eq!(c.state(), State::GameOver);
    assert!(c.last_event().contains("Ann wins"), "{}", c.last_event());
    // Turning on the next game by itself starts its timer.
    let fx = c.set_preferences(Preferences {
        auto_next_game: true,
        ..prefs
    });
    let token = match &fx[..] {
        [Effect::Timer { token, .. }] => *token,
        other => panic!("{other:?}"),
    };
    assert_eq!(c.state(), State::NextGameSoon { token });
    assert!(c.timer(token + 1).is_empty(), "another timer");
    assert_eq!(c.state(), State::NextGameSoon { token });
    c.timer(token);
    assert!(matches!(
        c.state(),
        State::HumanToAct | State::BotThinking { .. }
    ));
    assert_eq!(game(&c).score(), [0, 2], "Ann won a gammon");
}

/// The entries of the game in progress.
fn entries(c: &Controller) -> usize {
    game(c).record().games.last().map_or(0, |g| g.entries.len())
}

#[test]
fn an_earlier_action_is_shown_read_only_and_the_bot_waits() {
    let animate = Preferences {
        animate: true,
        ..PLAIN
    };
    let mut c = ann_moves_first(animate, 5);
    let mut worker = Worker::new();
    let live = c.display();
    // The opening roll is in the record already (a roll not yet played).
    assert_eq!(entries(&c), 1);

    // Ann plays; the bot thinks about its roll. Meanwhile Ann looks at her own move.
    let job = one_job(ann_moves(&mut c));
    assert_eq!(entries(&c), 1);
    let revision = c.record_revision();
    c.select(Some((0, 0)));
    assert!(c.is_reviewing());
    assert_eq!(c.selection(), Some((0, 0)));
    let shown = c.display();
    assert_ne!(
        shown.position, live.position,
        "the position after Ann's move"
    );
    assert!(shown.last_move.is_some(), "her move is marked");
    assert!(shown.turn.is_none() && shown.roll.is_none() && shown.prompt.is_none());
    assert!(c
        .status(MoveProgress::default())
        .starts_with("Reviewing game 1, action 1"));
    let controls = c.controls(MoveProgress::default());
    assert!(!controls.roll && !controls.resign && !controls.hint);
    assert_eq!(controls.buttons, Buttons::default());

    // The bot's answer still arrives in the record, but its next decision waits.
    let fx = c.reply(worker.run(job));
    assert!(split(fx).0.is_empty(), "no new job while reviewing");
    assert_eq!(c.state(), State::Paused);
    assert_eq!(entries(&c), 2, "the bot's roll arrived in the record");
    assert!(c.record_view().games()[0].cells[1].text.ends_with(':'));
    assert_eq!(c.display(), shown, "the board stays on the selected action");

    // Back to the game: the bot goes on, and its move is shown.
    let job = one_job(c.select(None));
    assert!(!c.is_reviewing());
    assert!(matches!(c.state(), State::BotThinking { .. }));
    // Looking back while the bot moves: the answer is played without animation.
    c.navigate(Nav::Previous);
    assert_eq!(
        c.selection(),
        Some((0, 1)),
        "Page Up: the last action, the bot's roll"
    );
    c.navigate(Nav::Previous);
    assert_eq!(c.selection(), Some((0, 0)));
    let fx = c.reply(worker.run(job));
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Animate { .. })),
        "{fx:?}"
    );
    assert_eq!(entries(&c), 2, "the bot's move arrived in the record");
    assert!(!c.record_view().games()[0].cells[1].text.ends_with(':'));
    assert_ne!(c.record_revision(), revision);
    assert_eq!(c.record_view().games()[0].cells.len(), 2);
    // Ann cannot act while she reviews, even though it is her turn.
    let before = game(&c).match_state();
    assert!(c.roll().is_empty() && c.double().is_empty());
    assert_eq!(game(&c).match_state(), before);

    // Page Down: the bot's move, then the live position.
    c.navigate(Nav::Next);
    assert_eq!(c.selection(), Some((0, 1)));
    let d = c.display();
    assert_eq!(d.last_move.as_ref().map(|m| m.seat), Some(Seat::Top));
    c.navigate(Nav::Next);
    assert_eq!(c.selection(), None);
    assert_eq!(c.state(), State::HumanToAct);
    assert!(c.controls(MoveProgress::default()).roll);
    // The live board marks the bot's last move too.
    assert_eq!(
        c.display().last_move.map(|m| m.seat),
        Some(Seat::Top),
        "the bot's move stays marked during play"
    );
    // An action that is not in the record is not selected.
    assert!(c.select(Some((3, 0))).is_empty());
    assert!(!c.is_reviewing());
}

#[test]
fn play_on_from_an_earlier_action() {
    let mut c = ann_moves_first(PLAIN, 5);
    let mut worker = Worker::new();
    let fx = ann_moves(&mut c);
    until_a_person_acts(&mut c, &mut worker, fx);
    c.roll();
    let fx = ann_moves(&mut c);
    until_a_person_acts(&mut c, &mut worker, fx);
    assert!(entries(&c) >= 3, "{}", entries(&c));
    // Without a selection there is nothing to play on from.
    let before = entries(&c);
    assert!(c.play_on_from_here().is_empty());
    assert_eq!(entries(&c), before);

    c.select(Some((0, 0)));
    let shown = c.display();
    let fx = c.play_on_from_here();
    assert!(!c.is_reviewing());
    assert_eq!(
        entries(&c),
        1,
        "the record is cut after the selected action"
    );
    assert_eq!(
        c.session().unwrap().bottom_position(),
        shown.position,
        "play goes on from the position shown"
    );
    // The bot is to roll: it thinks.
    assert_eq!(split(fx).0.len(), 1);
    assert!(matches!(c.state(), State::BotThinking { .. }));
    assert!(c
        .session()
        .unwrap()
        .log()
        .last()
        .is_some_and(|l| l.contains("Play goes on from game 1, action 1")));
}

#[test]
fn analysis_stored_in_the_record_changes_its_revision() {
    let mut c = ann_moves_first(PLAIN, 5);
    let fx = ann_moves(&mut c);
    let _ = fx;
    let revision = c.record_revision();
    let analysis = cubeful_engine::game::record::ActionAnalysis {
        skill: cubeful_engine::game::record::analysis::Skill::Bad,
        ..Default::default()
    };
    assert!(!c.set_analysis(0, 5, Some(Box::new(analysis.clone()))));
    assert_eq!(c.record_revision(), revision);
    assert!(c.set_analysis(0, 0, Some(Box::new(analysis))));
    assert_ne!(c.record_revision(), revision);
    let view = c.record_view();
    assert_eq!(view.marked_count(), 1);
    assert!(view.games()[0].cells[0].text.ends_with('?'));
    let revision = c.record_revision();
    c.record_changed();
    assert_ne!(c.record_revision(), revision);
}

#[test]
fn a_finished_match_opened_is_reviewed_without_a_result_dialog() {
    let path = cubeful_testkit::shared_path("corpus/sgf/gnubg-scripts_match1486073_analyzed.sgf");
    let bytes = std::fs::read(&path).expect("the corpus is beside the repository");
    let record = cubeful_engine::formats::match_file::read(&bytes)
        .expect("the file reads")
        .record;
    let game = Game::from_record(
        &record,
        Box::new(ScriptedDice::new(Vec::<cubeful_engine::Dice>::new())),
    )
    .expect("the record replays");
    let session = Session::from_game(setup(3, Opponent::Bot(Level::Beginner), 1), game);
    let mut c = Controller::new(PLAIN);
    let fx = c.resume(session);
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::ShowResult { .. })),
        "{fx:?}"
    );
    assert!(matches!(c.state(), State::MatchOver { .. }));
    let view = c.record_view();
    assert_eq!(view.games().len(), 2);
    assert!(view.marked_count() > 0);
    // Home: the first action of the last game; Ctrl+Page Down: its first marked action,
    // "31: 7/4 6/5?!" in row 8 (as GNU Backgammon lists it).
    c.navigate(Nav::First);
    assert_eq!(c.selection(), Some((1, 0)));
    c.navigate(Nav::NextMarked);
    let (g, e) = c.selection().expect("a marked action");
    assert_eq!(g, 1);
    assert_eq!(view.games()[1].row_of(e), Some(7));
    assert!(view.cell(g, e).unwrap().text.ends_with("7/4 6/5?!"));
    // The board shows the position after it.
    let after = record
        .replay()
        .unwrap()
        .game(1)
        .unwrap()
        .after(e)
        .unwrap()
        .position;
    let shown = c.display().position;
    assert!(shown == after || shown == after.swap());
    // End of the last game: back to the end of the match.
    c.navigate(Nav::Last);
    assert_eq!(c.selection(), None);
    assert!(matches!(c.state(), State::MatchOver { .. }));
}

/// The toasts among `fx`.
fn toasts(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Toast(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_pasted_gnubg_id_or_xgid_starts_play_from_its_position() {
    use cubeful_engine::{gnubg_id, xgid};
    let mut worker = Worker::new();
    let mut c = ann_moves_first(PLAIN, 5);
    let before = c.record_revision();
    // A bearoff race in a 7-point match at 2–4, Ann (the bottom player) on roll, cube 2 hers.
    let race = race();
    let mut state = MatchState::new_match(7);
    state.score = [2, 4];
    state.on_roll = ANN;
    state.turn = ANN;
    state.cube_log2 = 1;
    state.cube_owner = cubeful_engine::CubeOwner::Owned(ANN);
    let id = gnubg_id::encode(&race, &state);
    let fx = c.paste_position(&format!("  GNUID={id}\n"));
    assert!(toasts(&fx).is_empty(), "{fx:?}");
    let g = game(&c);
    assert_eq!(g.rules().match_length, 7);
    assert_eq!((g.score(), g.on_roll(), g.cube_value()), ([2, 4], ANN, 2));
    assert_eq!(g.position(), race);
    assert_eq!(
        c.session().unwrap().name(ANN),
        "Ann",
        "the players stay seated"
    );
    assert!(c.record_revision() > before);
    assert_eq!(c.state(), State::HumanToAct);
    // The same position as an XGID, the bot on roll: the bot plays.
    let mut theirs = state;
    theirs.on_roll = ANN.other();
    theirs.turn = theirs.on_roll;
    let fx = c.paste_position(&xgid::encode(&race, &theirs));
    assert!(toasts(&fx).is_empty(), "{fx:?}");
    assert_eq!(game(&c).on_roll(), ANN.other());
    let (jobs, _) = split(fx);
    assert!(
        jobs.iter().any(|j| matches!(j.kind, JobKind::Bot { .. })),
        "the bot is asked to act"
    );
    let _ = until_a_person_acts(&mut c, &mut worker, Vec::new());
}

#[test]
fn a_pasted_position_id_sets_the_checkers_of_the_game_in_progress() {
    let mut c = ann_moves_first(PLAIN, 5);
    let entries = |c: &Controller| game(c).record().games.last().map_or(0, |g| g.entries.len());
    let before = entries(&c);
    let on_roll = game(&c).on_roll();
    let race = race();
    let fx = c.paste_position(&cubeful_engine::position_id::encode(&race));
    assert!(toasts(&fx).is_empty(), "{fx:?}");
    let g = game(&c);
    assert_eq!((g.position(), g.on_roll()), (race, on_roll));
    assert_eq!(g.rules().match_length, 5, "the same match");
    assert_eq!(entries(&c), before + 1, "a set-up in the record");
    assert!(matches!(
        g.record()
            .games
            .last()
            .unwrap()
            .entries
            .last()
            .unwrap()
            .action,
        RecordAction::SetUp(_)
    ));
}

#[test]
fn pasting_something_else_says_so_and_changes_nothing() {
    let mut c = ann_moves_first(PLAIN, 5);
    let position = game(&c).position();
    for text in ["", "hello", "XGID=nonsense", &"x".repeat(10_000)] {
        let fx = c.paste_position(text);
        let t = toasts(&fx);
        assert_eq!(t.len(), 1, "{text:.20}: {fx:?}");
        assert!(t[0].len() < 80 && !t[0].contains('\n'), "{}", t[0]);
        assert_eq!(game(&c).position(), position);
    }
    // A finished position (the player on roll has borne off) cannot be played on.
    let over = Position::from_sides(
        &[0; 25],
        &[
            2, 3, 3, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ],
    )
    .unwrap();
    let id = cubeful_engine::gnubg_id::encode(&over, &MatchState::money());
    let fx = c.paste_position(&id);
    assert_eq!(toasts(&fx).len(), 1, "{fx:?}");
    assert_eq!(game(&c).position(), position);
}

/// A bearoff race: 15 checkers each in the home boards.
fn race() -> Position {
    let home = [
        2, 3, 3, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    Position::from_sides(&home, &home).unwrap()
}

#[test]
fn the_bot_offers_to_resign_a_lost_race_and_offers_only_more_once_rejected() {
    use cubeful_engine::gnubg_id;
    let mut worker = Worker::new();
    // Money, the bot (player 0) on roll with fifteen checkers home and none off; Ann has one
    // checker left on her ace point: whatever the bot rolls, Ann bears off next and wins a
    // single game (the bot bears off at least one checker).
    let bot_home = [
        3, 3, 3, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    let mut ann = [0u8; 25];
    ann[0] = 1;
    let lost = Position::from_sides(&bot_home, &ann).unwrap();
    let mut state = MatchState::money();
    state.on_roll = BOT;
    state.turn = BOT;
    for answer in ["reject", "accept"] {
        let mut c = ann_moves_first(PLAIN, 5);
        let fx = c.paste_position(&gnubg_id::encode(&lost, &state));
        assert!(toasts(&fx).is_empty(), "{fx:?}");
        let job = one_job(fx);
        assert!(matches!(job.kind, JobKind::Bot { rejected: None, .. }));
        // Before or after its roll (GNU Backgammon's bot may do either).
        let fx = c.reply(worker.run(job));
        let fx = until_a_person_acts(&mut c, &mut worker, fx);
        let Decision::AnswerResignation { player, .. } = game(&c).decision() else {
            panic!("the bot resigns: {:?}, {fx:?}", game(&c).decision());
        };
        assert_eq!(player, ANN);
        assert_eq!(c.state(), State::HumanToAct);
        assert!(c.display().resignation.is_some(), "shown on the board");
        if answer == "accept" {
            let _ = c.take();
            assert_eq!(game(&c).score()[ANN.index()], 1, "Ann wins a single game");
        } else {
            // Rejected: the bot plays on and may not offer the same again.
            let fx = c.drop_double();
            let job = one_job(fx);
            assert!(matches!(
                job.kind,
                JobKind::Bot {
                    rejected: Some(Resignation::Single),
                    ..
                }
            ));
            let fx = c.reply(worker.run(job));
            let _ = until_a_person_acts(&mut c, &mut worker, fx);
            assert!(
                !matches!(game(&c).decision(), Decision::AnswerResignation { .. }),
                "no second offer of a single game"
            );
        }
    }
}
