//! Engine work off the main thread.
//!
//! [`Engine`] runs two worker threads, one for the bot's decisions and one for hints, so a hint
//! never delays the bot and the reverse. Each owns its own [`Search`] (the nets are shared) and
//! waits on a channel for [`Job`]s; answers go back on an `async_channel` that the window reads
//! in a `glib::spawn_future_local` loop, so the window never blocks and never freezes.
//!
//! Every job carries an id. The window keeps the id of the job whose answer it still wants and
//! drops any other answer (the user started a new match or moved on). Dropping the [`Engine`]
//! (closing the window) closes the job channels: each worker finishes at most the job it is
//! on, without anybody waiting for it, and ends; its answer is discarded.
//!
//! The bearoff databases are opened (or generated once, about two seconds) in the user's cache
//! folder by the first worker that starts, and shared.

use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::thread;

use cubeful_engine::analysis::bot::Bot;
use cubeful_engine::analysis::hint::{self, Hint, Query};
use cubeful_engine::eval::bearoff::BearoffDb;
use cubeful_engine::eval::Nets;
use cubeful_engine::game::{Action, Game};
use cubeful_engine::search::{Level, Search};
use cubeful_engine::Player;

/// Work for the engine.
#[derive(Clone, Debug)]
pub enum Job {
    /// Decide the bot's next action in `game`.
    Bot { game: Box<Game>, level: Level },
    /// Analyse the decision pending in `game` for a hint.
    Hint { game: Box<Game>, level: Level },
}

/// An answer from a worker.
#[derive(Clone, Debug)]
pub enum Reply {
    /// The bot's action (`None`: it had nothing to decide).
    Bot {
        id: u64,
        action: Option<(Player, Action)>,
    },
    /// The hint (`None`: nothing to analyse now).
    Hint { id: u64, hint: Option<Hint> },
}

impl Reply {
    /// The id of the job answered.
    pub fn id(&self) -> u64 {
        match self {
            Reply::Bot { id, .. } | Reply::Hint { id, .. } => *id,
        }
    }
}

/// The worker threads and their channels.
#[derive(Debug)]
pub struct Engine {
    bot: mpsc::Sender<(u64, Job)>,
    hint: mpsc::Sender<(u64, Job)>,
    next_id: u64,
}

impl Engine {
    /// Starts the workers. Answers arrive on the returned receiver. `cache` is the folder for
    /// the bearoff databases (`None`: generate them in memory).
    pub fn start(cache: Option<PathBuf>) -> (Engine, async_channel::Receiver<Reply>) {
        let (reply_tx, reply_rx) = async_channel::unbounded();
        let nets = Arc::new(Nets::embedded());
        let bearoff: Arc<OnceLock<Arc<BearoffDb>>> = Arc::new(OnceLock::new());
        let spawn = |name: &str| {
            let (tx, rx) = mpsc::channel::<(u64, Job)>();
            let replies = reply_tx.clone();
            let nets = nets.clone();
            let bearoff = bearoff.clone();
            let cache = cache.clone();
            thread::Builder::new()
                .name(format!("cubeful-{name}"))
                .spawn(move || worker(rx, replies, nets, bearoff, cache))
                .expect("the system can start a thread");
            tx
        };
        let bot = spawn("bot");
        let hint = spawn("hint");
        (
            Engine {
                bot,
                hint,
                next_id: 1,
            },
            reply_rx,
        )
    }

    /// Queues `job` and returns its id. If the worker is gone (it cannot be, short of a crash
    /// in the engine) the job is dropped and no answer will come.
    pub fn submit(&mut self, job: Job) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let queue = match job {
            Job::Bot { .. } => &self.bot,
            Job::Hint { .. } => &self.hint,
        };
        let _ = queue.send((id, job));
        id
    }
}

/// The body of a worker thread: jobs in, replies out, until the job channel closes.
fn worker(
    jobs: mpsc::Receiver<(u64, Job)>,
    replies: async_channel::Sender<Reply>,
    nets: Arc<Nets>,
    bearoff: Arc<OnceLock<Arc<BearoffDb>>>,
    cache: Option<PathBuf>,
) {
    let mut search = Search::new(nets);
    let db = bearoff.get_or_init(|| {
        let mut quiet = |_event: cubeful_engine::eval::bearoff::Event<'_>| {};
        Arc::new(match &cache {
            Some(dir) => BearoffDb::open_or_generate(dir, &mut quiet),
            None => BearoffDb::generate(&mut quiet),
        })
    });
    search.set_bearoff(Some(db.clone()));
    while let Ok((id, job)) = jobs.recv() {
        let reply = run(&mut search, id, job);
        if replies.send_blocking(reply).is_err() {
            break; // the window is gone
        }
    }
}

/// Does one job.
pub fn run(search: &mut Search, id: u64, job: Job) -> Reply {
    match job {
        Job::Bot { game, level } => {
            search.set_noise_seed(id);
            Reply::Bot {
                id,
                action: Bot::new(level).choose(&game, search),
            }
        }
        Job::Hint { game, level } => Reply::Hint {
            id,
            hint: hint(search, &game, level),
        },
    }
}

/// The hint for the decision pending in `game`, from the engine's one hint function (the same
/// as every front end's): ranked plays, the cube decision before the roll, take/drop/beaver when
/// a double is on offer, accept/reject when a resignation is. `None` when nobody has to decide.
pub fn hint(search: &mut Search, game: &Game, level: Level) -> Option<Hint> {
    let query = Query::from_game(game)?;
    Some(hint::hint(search, &query, &level.settings()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::game::{Rules, ScriptedDice};

    fn game(rolls: &str) -> Game {
        let mut g = Game::new(
            Rules::match_to(5),
            Box::new(ScriptedDice::parse(rolls).unwrap()),
        )
        .unwrap();
        g.new_game().unwrap();
        g
    }

    fn engine_hint(search: &mut Search, g: &Game, level: Level) -> Hint {
        let query = Query::from_game(g).expect("a decision is pending");
        hint::hint(search, &query, &level.settings())
    }

    #[test]
    fn hint_ranks_moves_and_cube() {
        let mut search = Search::new(Arc::new(Nets::embedded()));
        let g = game("31 52");
        let got = hint(&mut search, &g, Level::Expert).expect("a hint");
        // The worker's hint is the engine's, number for number.
        assert_eq!(got, engine_hint(&mut search, &g, Level::Expert));
        match got {
            Hint::Moves(h) => {
                assert!(h.moves.len() > 5);
                assert_eq!(h.moves[0].difference, 0.0);
                assert!(h.moves.iter().all(|m| m.difference <= 0.0));
                assert_eq!(h.moves[0].text, "8/5 6/5", "the best 31 makes the 5 point");
            }
            other => panic!("{other:?}"),
        }
        let mut g = g;
        g.play_text(Player::Zero, "8/5 6/5").unwrap();
        match hint(&mut search, &g, Level::Expert) {
            Some(Hint::Cube(c)) => {
                assert!(!c.decision.action.is_double(), "no double after one move");
                assert!(!c.double);
                assert!(c.probabilities.win > 0.2 && c.probabilities.win < 0.8);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_pending_double_gets_a_take_hint() {
        let mut search = Search::new(Arc::new(Nets::embedded()));
        let mut g = game("31 52");
        g.play_text(Player::Zero, "8/5 6/5").unwrap();
        g.apply(Player::One, Action::Double).unwrap();
        let got = hint(&mut search, &g, Level::Expert).expect("a hint");
        assert_eq!(got, engine_hint(&mut search, &g, Level::Expert));
        match got {
            Hint::Take(t) => {
                // X doubled far too early: O takes (no beavers in a match).
                assert_eq!(t.response, cubeful_engine::cube::Response::Take);
                assert_eq!(t.beaver, None);
                assert!(t.take > t.drop, "{t:?}");
                assert!(!t.on_roll_answers);
            }
            other => panic!("a take hint, not {other:?}"),
        }
    }

    #[test]
    fn no_hint_without_a_decision() {
        let mut search = Search::new(Arc::new(Nets::embedded()));
        let g = Game::new(
            Rules::match_to(5),
            Box::new(ScriptedDice::parse("31").unwrap()),
        )
        .unwrap();
        assert_eq!(hint(&mut search, &g, Level::Expert), None);
    }

    #[test]
    fn workers_answer_and_stop() {
        let (mut engine, replies) = Engine::start(None);
        let g = game("31");
        let id = engine.submit(Job::Bot {
            game: Box::new(g.clone()),
            level: Level::Beginner,
        });
        let hid = engine.submit(Job::Hint {
            game: Box::new(g),
            level: Level::Beginner,
        });
        let mut got = Vec::new();
        for _ in 0..2 {
            let reply = replies.recv_blocking().unwrap();
            got.push(reply.id());
            match reply {
                Reply::Bot { action, .. } => {
                    let (player, action) = action.unwrap();
                    assert_eq!(player, Player::Zero);
                    assert!(matches!(action, Action::Move(_)));
                }
                Reply::Hint { hint, .. } => assert!(matches!(hint, Some(Hint::Moves(_)))),
            }
        }
        got.sort();
        assert_eq!(got, vec![id, hid]);
        drop(engine);
        // With the job channels closed the workers end and the reply channel closes.
        assert!(replies.recv_blocking().is_err());
    }
}
