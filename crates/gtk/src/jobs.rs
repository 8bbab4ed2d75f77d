//! Engine work off the main thread: a pool of worker threads, each with its own [`Search`]
//! (the nets and the bearoff databases are shared), taking [`Job`]s from one queue.
//!
//! A job carries everything it needs and nothing more: the position, the match state and the
//! rules (an engine [`Query`]), never the whole game with its dice generator, so no worker can
//! see a future roll. Every job has a [`JobId`] and a cancel flag (`Arc<AtomicBool>`) shared
//! with whoever submitted it:
//!
//! * a cancelled job still in the queue is dropped without running;
//! * a running job may look at the flag through its [`Progress`] and stop early (rollouts and
//!   analyses will; the bot's and the hint's searches have no such hook, they run to the end);
//! * the answer of a job cancelled before it ends is never delivered: the pool answers
//!   [`Reply::Cancelled`] instead of [`Reply::Done`].
//!
//! Answers go back on an `async_channel` that the window reads in a `glib::spawn_future_local`
//! loop, so the window never blocks: [`Reply::Progress`] while a job runs (if it reports
//! progress), then exactly one [`Reply::Done`] or [`Reply::Cancelled`]. The receiver still
//! drops answers whose id it no longer waits for.
//!
//! The queue serves the bot first, then hints, then background tasks ([`JobKind::priority`]).
//! The pool starts `min_threads` workers and adds one (up to `max_threads`) when a job arrives
//! while every worker is busy, which happens when a job was cancelled but its search is still
//! running: the bot never waits for a hint that nobody wants any more. Dropping the pool
//! cancels what is queued; each worker finishes at most the job it is on, without anybody
//! waiting for it, and ends.
//!
//! The bearoff databases are opened (or generated once, about two seconds) by the first worker
//! that starts, and shared ([`BearoffSource`]).

use std::any::Any;
use std::collections::VecDeque;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::thread;

use cubeful_engine::analysis::analyse::{
    self, AnalyseError, Analysed, AnalysisSettings, Observer, Outcome, Run,
};
use cubeful_engine::analysis::bot::Bot;
use cubeful_engine::analysis::hint::{self, Hint, Query};
use cubeful_engine::eval::bearoff::BearoffDb;
use cubeful_engine::eval::Nets;
use cubeful_engine::game::record::MatchRecord;
use cubeful_engine::game::Action;
use cubeful_engine::search::{Level, Search};
use cubeful_engine::{Player, Resignation};

/// The id of a job, unique among the jobs of one submitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobId(pub u64);

impl fmt::Display for JobId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "job {}", self.0)
    }
}

/// The body of a background task: runs on a worker with its [`Search`], reports progress and
/// looks at the cancel flag through the [`Progress`], and returns its result.
pub type TaskFn = Box<dyn FnOnce(&mut Search, &Progress<'_>) -> Box<dyn Any + Send> + Send>;

/// What a job does.
pub enum JobKind {
    /// The bot's decision about `query` (see `Bot::decide_or_resign`: it may offer to resign);
    /// `may_double` is the game's flag that the player on roll may double now, `rejected` the
    /// largest resignation of the bot's that was rejected in this game (it offers only more).
    Bot {
        query: Query,
        may_double: bool,
        rejected: Option<Resignation>,
        level: Level,
    },
    /// The engine's hint about `query`.
    Hint { query: Query, level: Level },
    /// The analysis of a copy of a match record (never the game itself) under `settings`
    /// with `threads` threads of its own (see the engine's `analysis::analyse`): each action's
    /// analysis is sent on `results` as soon as it is ready, progress comes as
    /// [`Reply::Progress`] in positions, and the job stops at the next step when cancelled.
    /// It answers [`Output::Analysis`].
    Analysis {
        record: Box<MatchRecord>,
        settings: Box<AnalysisSettings>,
        threads: usize,
        results: async_channel::Sender<Analysed>,
    },
    /// Any other engine work (a rollout, a match analysis), with progress and cancellation.
    Task(TaskFn),
}

impl JobKind {
    /// Queue order: the bot (0) before hints (1) before background tasks (2).
    pub fn priority(&self) -> u8 {
        match self {
            JobKind::Bot { .. } => 0,
            JobKind::Hint { .. } => 1,
            JobKind::Analysis { .. } | JobKind::Task(_) => 2,
        }
    }
}

impl fmt::Debug for JobKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobKind::Bot {
                query,
                may_double,
                rejected,
                level,
            } => f
                .debug_struct("Bot")
                .field("query", query)
                .field("may_double", may_double)
                .field("rejected", rejected)
                .field("level", level)
                .finish(),
            JobKind::Hint { query, level } => f
                .debug_struct("Hint")
                .field("query", query)
                .field("level", level)
                .finish(),
            JobKind::Analysis {
                settings, threads, ..
            } => f
                .debug_struct("Analysis")
                .field("checker", &settings.checker.describe())
                .field("threads", threads)
                .finish(),
            JobKind::Task(_) => f.write_str("Task"),
        }
    }
}

/// A unit of engine work: its id, what to do, and the flag that cancels it.
#[derive(Debug)]
pub struct Job {
    pub id: JobId,
    pub kind: JobKind,
    pub cancel: Arc<AtomicBool>,
}

impl Job {
    /// A job not cancelled yet.
    pub fn new(id: JobId, kind: JobKind) -> Job {
        Job {
            id,
            kind,
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The handle that cancels this job (keep it before submitting the job).
    pub fn handle(&self) -> JobHandle {
        JobHandle {
            id: self.id,
            cancel: self.cancel.clone(),
        }
    }
}

/// What the submitter keeps of a job: its id and its cancel flag.
#[derive(Clone, Debug)]
pub struct JobHandle {
    pub id: JobId,
    cancel: Arc<AtomicBool>,
}

impl JobHandle {
    /// Asks the job to stop: dropped if still queued, its answer dropped if running.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// True once [`JobHandle::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

impl PartialEq for JobHandle {
    fn eq(&self, other: &JobHandle) -> bool {
        self.id == other.id && Arc::ptr_eq(&self.cancel, &other.cancel)
    }
}

/// The result of a finished job.
pub enum Output {
    /// The bot's action (`None`: nobody had to decide).
    Bot(Option<(Player, Action)>),
    /// The hint.
    Hint(Hint),
    /// What a [`JobKind::Analysis`] did: every action analysed (already sent one by one),
    /// or why the record could not be analysed.
    Analysis(Result<Outcome, AnalyseError>),
    /// What a [`JobKind::Task`] returned.
    Task(Box<dyn Any + Send>),
}

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Output::Bot(action) => f.debug_tuple("Bot").field(action).finish(),
            Output::Hint(hint) => f.debug_tuple("Hint").field(hint).finish(),
            Output::Analysis(outcome) => f
                .debug_tuple("Analysis")
                .field(&outcome.as_ref().map(|o| o.analysed.len()))
                .finish(),
            Output::Task(_) => f.write_str("Task(..)"),
        }
    }
}

/// A message from the pool about a job.
#[derive(Debug)]
pub enum Reply {
    /// The job has done `done` of `total` units of work; `trials` are the trials done and the
    /// trial limit of a rollout under way inside the current unit.
    Progress {
        id: JobId,
        done: u64,
        total: u64,
        trials: Option<(u32, u32)>,
    },
    /// The job is finished.
    Done { id: JobId, output: Output },
    /// The job was cancelled: it did not run, or its result was dropped.
    Cancelled { id: JobId },
}

impl Reply {
    /// The id of the job the message is about.
    pub fn id(&self) -> JobId {
        match self {
            Reply::Progress { id, .. } | Reply::Done { id, .. } | Reply::Cancelled { id } => *id,
        }
    }
}

/// A running job's view of its progress and of its cancel flag.
pub struct Progress<'a> {
    id: JobId,
    cancel: &'a AtomicBool,
    replies: &'a async_channel::Sender<Reply>,
}

impl Progress<'_> {
    /// Reports that `done` of `total` units of work are done.
    pub fn report(&self, done: u64, total: u64) {
        let _ = self.replies.send_blocking(Reply::Progress {
            id: self.id,
            done,
            total,
            trials: None,
        });
    }

    /// True once the job was cancelled: a task should stop as soon as it can.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// Where the workers get the bearoff databases from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BearoffSource {
    /// Opened from this folder, or generated there once (about two seconds) and kept.
    Folder(PathBuf),
    /// Generated in memory when the first worker starts.
    Generate,
    /// None: bearoff positions are evaluated by the race net.
    Without,
}

/// The queue and the workers' bookkeeping, under one lock.
#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    threads: usize,
    idle: usize,
    closed: bool,
}

/// What the workers share with the pool.
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    replies: async_channel::Sender<Reply>,
    nets: Arc<Nets>,
    bearoff: OnceLock<Option<Arc<BearoffDb>>>,
    source: BearoffSource,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A worker that panicked in the engine leaves the queue consistent: keep going.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The worker threads and their queue.
pub struct JobPool {
    shared: Arc<Shared>,
    max_threads: usize,
}

impl fmt::Debug for JobPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let q = self.shared.lock();
        f.debug_struct("JobPool")
            .field("queued", &q.jobs.len())
            .field("threads", &q.threads)
            .field("idle", &q.idle)
            .finish()
    }
}

impl JobPool {
    /// Starts `min_threads` workers (at least one; more are added up to `max_threads` when
    /// needed) with the nets built into the program. Answers arrive on the returned receiver.
    pub fn start(
        bearoff: BearoffSource,
        min_threads: usize,
        max_threads: usize,
    ) -> (JobPool, async_channel::Receiver<Reply>) {
        JobPool::with_nets(
            Arc::new(Nets::embedded()),
            bearoff,
            min_threads,
            max_threads,
        )
    }

    /// [`JobPool::start`] with these nets.
    pub fn with_nets(
        nets: Arc<Nets>,
        bearoff: BearoffSource,
        min_threads: usize,
        max_threads: usize,
    ) -> (JobPool, async_channel::Receiver<Reply>) {
        let (replies, receiver) = async_channel::unbounded();
        let min_threads = min_threads.max(1);
        let pool = JobPool {
            shared: Arc::new(Shared {
                queue: Mutex::new(Queue::default()),
                ready: Condvar::new(),
                replies,
                nets,
                bearoff: OnceLock::new(),
                source: bearoff,
            }),
            max_threads: max_threads.max(min_threads),
        };
        {
            let mut queue = pool.shared.lock();
            for _ in 0..min_threads {
                pool.spawn(&mut queue);
            }
        }
        (pool, receiver)
    }

    /// Queues `job`. Its answer comes on the receiver (unless the pool is dropped first).
    pub fn submit(&self, job: Job) {
        let mut queue = self.shared.lock();
        // Behind every queued job of the same or a higher priority.
        let at = queue
            .jobs
            .iter()
            .position(|j| j.kind.priority() > job.kind.priority())
            .unwrap_or(queue.jobs.len());
        queue.jobs.insert(at, job);
        // Every worker is busy (with work that may have been cancelled): add one.
        let waiting = queue.jobs.len();
        if queue.idle < waiting && queue.threads < self.max_threads {
            self.spawn(&mut queue);
        }
        drop(queue);
        self.shared.ready.notify_one();
    }

    /// The number of worker threads running.
    pub fn threads(&self) -> usize {
        self.shared.lock().threads
    }

    fn spawn(&self, queue: &mut Queue) {
        let shared = self.shared.clone();
        let n = queue.threads;
        let started = thread::Builder::new()
            .name(format!("cubeful-engine-{n}"))
            .spawn(move || worker(&shared));
        if started.is_ok() {
            // Idle until it takes a job, even while it opens the bearoff databases.
            queue.threads += 1;
            queue.idle += 1;
        }
    }
}

impl Drop for JobPool {
    fn drop(&mut self) {
        let dropped: Vec<Job> = {
            let mut queue = self.shared.lock();
            queue.closed = true;
            queue.jobs.drain(..).collect()
        };
        for job in dropped {
            let _ = self
                .shared
                .replies
                .try_send(Reply::Cancelled { id: job.id });
        }
        self.shared.ready.notify_all();
    }
}

/// How much nicer than the window's thread the workers run: when the cores are busy, drawing
/// and input come first, and a long analysis takes only what they leave.
const WORKER_NICENESS: i32 = 5;

/// Makes the calling worker thread [`WORKER_NICENESS`] nicer than it is (threads it starts, such
/// as a rollout's, inherit that). On Linux, the niceness belongs to the thread.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread; errors are reported in errno only.
    unsafe {
        let tid = libc::gettid() as libc::id_t;
        *libc::__errno_location() = 0;
        let now = libc::getpriority(libc::PRIO_PROCESS, tid);
        if *libc::__errno_location() == 0 {
            // Failing (a sandbox forbidding it) leaves the thread as it was, which is harmless.
            let _ = libc::setpriority(libc::PRIO_PROCESS, tid, now + WORKER_NICENESS);
        }
    }
}

/// The body of a worker thread: jobs in, replies out, until the pool is dropped.
fn worker(shared: &Shared) {
    lower_priority();
    let mut search = Search::new(shared.nets.clone());
    let db = shared.bearoff.get_or_init(|| {
        let mut quiet = |_event: cubeful_engine::eval::bearoff::Event<'_>| {};
        match &shared.source {
            BearoffSource::Folder(dir) => {
                Some(Arc::new(BearoffDb::open_or_generate(dir, &mut quiet)))
            }
            BearoffSource::Generate => Some(Arc::new(BearoffDb::generate(&mut quiet))),
            BearoffSource::Without => None,
        }
    });
    search.set_bearoff(db.clone());
    loop {
        let job = {
            let mut queue = shared.lock();
            loop {
                if queue.closed {
                    queue.idle -= 1;
                    queue.threads -= 1;
                    return;
                }
                if let Some(job) = queue.jobs.pop_front() {
                    queue.idle -= 1;
                    break job;
                }
                queue = shared.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
        let reply = run_with(&mut search, db.clone(), job, &shared.replies);
        let sent = shared.replies.send_blocking(reply).is_ok();
        let mut queue = shared.lock();
        if !sent {
            // Nobody listens any more: the window is gone.
            queue.threads -= 1;
            return;
        }
        queue.idle += 1;
    }
}

/// Does one job (unless it was cancelled) and gives the reply to send. An analysis runs
/// without bearoff databases.
pub fn run(search: &mut Search, job: Job, replies: &async_channel::Sender<Reply>) -> Reply {
    run_with(search, None, job, replies)
}

/// [`run`], an analysis with the bearoff databases `bearoff` (the worker's).
fn run_with(
    search: &mut Search,
    bearoff: Option<Arc<BearoffDb>>,
    job: Job,
    replies: &async_channel::Sender<Reply>,
) -> Reply {
    let Job { id, kind, cancel } = job;
    if cancel.load(Ordering::Relaxed) {
        return Reply::Cancelled { id };
    }
    let output = match kind {
        JobKind::Bot {
            query,
            may_double,
            rejected,
            level,
        } => {
            // The noise of the weaker levels follows the job, so a replayed match with the
            // same ids plays the same.
            search.set_noise_seed(id.0);
            Output::Bot(Bot::new(level).decide_or_resign(&query, may_double, rejected, search))
        }
        JobKind::Hint { query, level } => {
            Output::Hint(hint::hint(search, &query, &level.settings()))
        }
        JobKind::Analysis {
            record,
            settings,
            threads,
            results,
        } => {
            let observer = AnalysisObserver {
                id,
                replies,
                results: &results,
            };
            let run = Run {
                threads: threads.max(1),
                cancel: Some(&cancel),
                nets: search.evaluator().nets().clone(),
                bearoff,
            };
            Output::Analysis(analyse::analyse(&record, &settings, &run, &observer))
        }
        JobKind::Task(task) => {
            let progress = Progress {
                id,
                cancel: &cancel,
                replies,
            };
            Output::Task(task(search, &progress))
        }
    };
    if cancel.load(Ordering::Relaxed) {
        Reply::Cancelled { id }
    } else {
        Reply::Done { id, output }
    }
}

/// Passes an analysis' results and progress on to the main loop.
struct AnalysisObserver<'a> {
    id: JobId,
    replies: &'a async_channel::Sender<Reply>,
    results: &'a async_channel::Sender<Analysed>,
}

impl Observer for AnalysisObserver<'_> {
    fn analysed(&self, result: &Analysed) {
        let _ = self.results.send_blocking(result.clone());
    }

    fn progress(&self, progress: &analyse::Progress) {
        let _ = self.replies.send_blocking(Reply::Progress {
            id: self.id,
            done: progress.done as u64,
            total: progress.total as u64,
            trials: progress.trials,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::analysis::hint::Question;
    use cubeful_engine::game::{Decision, Game, Rules, ScriptedDice};
    use std::sync::mpsc;
    use std::time::Duration;

    #[cfg(target_os = "linux")]
    fn niceness() -> i32 {
        // SAFETY: a plain system call on the calling thread.
        unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn workers_are_nicer_than_the_thread_that_starts_them() {
        let before = niceness();
        let (worker, started_by_worker) = thread::spawn(move || {
            lower_priority();
            let inner = thread::spawn(niceness).join().unwrap();
            (niceness(), inner)
        })
        .join()
        .unwrap();
        // Up to 19 at most: a test already running at 19 cannot see a difference.
        let expected = (before + WORKER_NICENESS).min(19);
        assert_eq!(worker, expected);
        assert_eq!(
            started_by_worker, expected,
            "threads a worker starts inherit it"
        );
        assert_eq!(niceness(), before, "the calling thread keeps its own");
    }

    fn game(rolls: &str) -> Game {
        let mut g = Game::new(
            Rules::match_to(5),
            Box::new(ScriptedDice::parse(rolls).unwrap()),
        )
        .unwrap();
        g.new_game().unwrap();
        g
    }

    fn nets() -> Arc<Nets> {
        static NETS: OnceLock<Arc<Nets>> = OnceLock::new();
        NETS.get_or_init(|| Arc::new(Nets::embedded())).clone()
    }

    fn hint_job(id: u64, g: &Game, level: Level) -> Job {
        Job::new(
            JobId(id),
            JobKind::Hint {
                query: Query::from_game(g).expect("a decision is pending"),
                level,
            },
        )
    }

    /// A task that waits until `go` says so, then returns `value`.
    fn blocking_task(go: mpsc::Receiver<()>, value: u32) -> JobKind {
        let (started, _) = mpsc::channel();
        blocking_task_telling(started, go, value)
    }

    /// A blocking task that says on `started` when it runs.
    fn blocking_task_telling(
        started: mpsc::Sender<()>,
        go: mpsc::Receiver<()>,
        value: u32,
    ) -> JobKind {
        let go = Mutex::new(go);
        JobKind::Task(Box::new(move |_, _| {
            let _ = started.send(());
            let _ = go.lock().unwrap().recv_timeout(Duration::from_secs(30));
            Box::new(value)
        }))
    }

    fn recv(replies: &async_channel::Receiver<Reply>) -> Reply {
        // A generous bound so a broken pool fails instead of hanging the test run.
        for _ in 0..600 {
            if let Ok(r) = replies.try_recv() {
                return r;
            }
            thread::sleep(Duration::from_millis(50));
        }
        panic!("no reply within 30 s");
    }

    #[test]
    fn a_hint_job_answers_with_the_engines_hint() {
        let (pool, replies) = JobPool::with_nets(nets(), BearoffSource::Without, 1, 1);
        let g = game("31 52");
        pool.submit(hint_job(7, &g, Level::Expert));
        let mut search = Search::new(nets());
        let expected = hint::hint(
            &mut search,
            &Query::from_game(&g).unwrap(),
            &Level::Expert.settings(),
        );
        match recv(&replies) {
            Reply::Done {
                id: JobId(7),
                output: Output::Hint(got),
            } => {
                // Number for number the engine's hint.
                assert_eq!(got, expected);
                match got {
                    Hint::Moves(h) => assert_eq!(h.moves[0].text, "8/5 6/5"),
                    other => panic!("{other:?}"),
                }
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_pending_double_gets_a_take_hint() {
        let mut g = game("31 52");
        g.play_text(Player::Zero, "8/5 6/5").unwrap();
        g.apply(Player::One, Action::Double).unwrap();
        let query = Query::from_game(&g).unwrap();
        assert!(matches!(query.question, Question::AnswerDouble { .. }));
        let (pool, replies) = JobPool::with_nets(nets(), BearoffSource::Without, 1, 1);
        pool.submit(Job::new(
            JobId(1),
            JobKind::Hint {
                query,
                level: Level::Expert,
            },
        ));
        match recv(&replies) {
            Reply::Done {
                output: Output::Hint(Hint::Take(t)),
                ..
            } => {
                // X doubled far too early: O takes (no beavers in a match).
                assert_eq!(t.response, cubeful_engine::cube::Response::Take);
                assert_eq!(t.beaver, None);
                assert!(!t.on_roll_answers);
            }
            other => panic!("a take hint, not {other:?}"),
        }
    }

    #[test]
    fn the_bot_job_decides_from_the_query() {
        let (pool, replies) = JobPool::with_nets(nets(), BearoffSource::Without, 1, 2);
        let g = game("31");
        let query = Query::from_game(&g).unwrap();
        pool.submit(Job::new(
            JobId(3),
            JobKind::Bot {
                query,
                may_double: false,
                rejected: None,
                level: Level::Beginner,
            },
        ));
        match recv(&replies) {
            Reply::Done {
                id: JobId(3),
                output: Output::Bot(Some((player, Action::Move(mv)))),
            } => {
                assert_eq!(player, Player::Zero);
                assert!(g.legal_moves().iter().any(|m| m.mv.steps() == mv.steps()));
            }
            other => panic!("{other:?}"),
        }
        // Before the roll, with the cube out of reach: a roll without any search.
        let mut g = game("31 52");
        g.play_text(Player::Zero, "8/5 6/5").unwrap();
        let Decision::Roll { player, .. } = g.decision() else {
            panic!("{:?}", g.decision());
        };
        pool.submit(Job::new(
            JobId(4),
            JobKind::Bot {
                query: Query::from_game(&g).unwrap(),
                may_double: false,
                rejected: None,
                level: Level::Expert,
            },
        ));
        match recv(&replies) {
            Reply::Done {
                output: Output::Bot(action),
                ..
            } => assert_eq!(action, Some((player, Action::Roll))),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_cancelled_job_in_the_queue_never_runs() {
        let (pool, replies) = JobPool::with_nets(nets(), BearoffSource::Without, 1, 1);
        let (go, wait) = mpsc::channel();
        pool.submit(Job::new(JobId(1), blocking_task(wait, 1)));
        let ran = Arc::new(AtomicBool::new(false));
        let flag = ran.clone();
        let second = Job::new(
            JobId(2),
            JobKind::Task(Box::new(move |_, _| {
                flag.store(true, Ordering::Relaxed);
                Box::new(2u32)
            })),
        );
        let handle = second.handle();
        pool.submit(second);
        handle.cancel();
        assert!(handle.is_cancelled());
        go.send(()).unwrap();
        match recv(&replies) {
            Reply::Done {
                id: JobId(1),
                output: Output::Task(value),
            } => assert_eq!(value.downcast_ref::<u32>(), Some(&1)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(recv(&replies), Reply::Cancelled { id: JobId(2) }));
        assert!(!ran.load(Ordering::Relaxed), "a cancelled job does not run");
    }

    #[test]
    fn a_task_reports_progress_and_stops_when_cancelled() {
        let (pool, replies) = JobPool::with_nets(nets(), BearoffSource::Without, 1, 1);
        let (started, wait_started) = mpsc::channel();
        let job = Job::new(
            JobId(9),
            JobKind::Task(Box::new(move |_, progress| {
                let mut done = 0u64;
                while !progress.is_cancelled() && done < 1_000_000 {
                    done += 1;
                    progress.report(done, 1_000_000);
                    if done == 3 {
                        let _ = started.send(());
                    }
                    thread::sleep(Duration::from_millis(1));
                }
                Box::new(done)
            })),
        );
        let handle = job.handle();
        pool.submit(job);
        wait_started
            .recv_timeout(Duration::from_secs(30))
            .expect("the task runs");
        handle.cancel();
        let mut progress = Vec::new();
        loop {
            match recv(&replies) {
                Reply::Progress {
                    id, done, total, ..
                } => {
                    assert_eq!((id, total), (JobId(9), 1_000_000));
                    progress.push(done);
                }
                Reply::Cancelled { id } => {
                    assert_eq!(id, JobId(9));
                    break;
                }
                other => panic!("a cancelled task is not done: {other:?}"),
            }
        }
        assert!(progress.len() >= 3);
        assert!(progress.windows(2).all(|w| w[0] < w[1]));
        assert!(*progress.last().unwrap() < 1_000_000, "it stopped early");
    }

    #[test]
    fn the_bot_goes_first_and_a_busy_pool_grows() {
        // One worker, blocked: the next job gets a second worker.
        let (pool, replies) = JobPool::with_nets(nets(), BearoffSource::Without, 1, 2);
        let (go, wait) = mpsc::channel();
        pool.submit(Job::new(JobId(1), blocking_task(wait, 1)));
        let g = game("31");
        pool.submit(hint_job(2, &g, Level::Beginner));
        assert_eq!(pool.threads(), 2);
        assert!(matches!(
            recv(&replies),
            Reply::Done {
                id: JobId(2),
                output: Output::Hint(_)
            }
        ));
        go.send(()).unwrap();
        assert!(matches!(recv(&replies), Reply::Done { id: JobId(1), .. }));

        // The queue orders by priority: with both workers blocked, a bot job queued after a
        // hint runs first.
        let (go1, wait1) = mpsc::channel();
        let (go2, wait2) = mpsc::channel();
        let (started, running) = mpsc::channel();
        pool.submit(Job::new(
            JobId(10),
            blocking_task_telling(started.clone(), wait1, 10),
        ));
        pool.submit(Job::new(
            JobId(11),
            blocking_task_telling(started, wait2, 11),
        ));
        for _ in 0..2 {
            running
                .recv_timeout(Duration::from_secs(30))
                .expect("both workers are blocked");
        }
        pool.submit(hint_job(12, &g, Level::Beginner));
        pool.submit(Job::new(
            JobId(13),
            JobKind::Bot {
                query: Query::from_game(&g).unwrap(),
                may_double: false,
                rejected: None,
                level: Level::Beginner,
            },
        ));
        assert_eq!(pool.threads(), 2, "never more than the maximum");
        go1.send(()).unwrap();
        assert_eq!(recv(&replies).id(), JobId(10));
        // The freed worker takes the bot's job, queued last, before the hint.
        assert_eq!(recv(&replies).id(), JobId(13));
        go2.send(()).unwrap();
        let mut rest = vec![recv(&replies).id(), recv(&replies).id()];
        rest.sort();
        assert_eq!(rest, vec![JobId(11), JobId(12)]);
    }

    /// A short match played by the scripted dice, as a record.
    fn short_record() -> MatchRecord {
        let mut g = game("31 52 64 33 21");
        g.play_text(Player::Zero, "8/5 6/5").unwrap();
        g.apply(Player::One, Action::Roll).unwrap();
        g.play_text(Player::One, "13/8 13/11").unwrap();
        g.apply(Player::Zero, Action::Roll).unwrap();
        g.play_text(Player::Zero, "24/18 13/9").unwrap();
        g.record().clone()
    }

    #[test]
    fn an_analysis_job_streams_each_action_then_answers_with_the_outcome() {
        let (pool, replies) = JobPool::with_nets(nets(), BearoffSource::Without, 1, 1);
        let record = short_record();
        let (results, incoming) = async_channel::unbounded();
        let settings = AnalysisSettings {
            checker: analyse::AnalysisLevel::plies(0),
            cube: analyse::AnalysisLevel::plies(0),
            ..AnalysisSettings::default()
        };
        pool.submit(Job::new(
            JobId(5),
            JobKind::Analysis {
                record: Box::new(record.clone()),
                settings: Box::new(settings),
                threads: 1,
                results,
            },
        ));
        let mut progress = Vec::new();
        let outcome = loop {
            match recv(&replies) {
                Reply::Progress {
                    id, done, total, ..
                } => {
                    assert_eq!((id, total), (JobId(5), 3));
                    progress.push(done);
                }
                Reply::Done {
                    id: JobId(5),
                    output: Output::Analysis(outcome),
                } => break outcome.expect("the record is analysed"),
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(progress.first(), Some(&0));
        assert_eq!(progress.last(), Some(&3));
        assert!(!outcome.cancelled);
        // Every action came on the channel before the answer, as the outcome has them.
        let mut streamed: Vec<Analysed> = std::iter::from_fn(|| incoming.try_recv().ok()).collect();
        streamed.sort_by_key(|a| (a.game, a.entry));
        assert_eq!(streamed, outcome.analysed);
        assert_eq!(streamed.len(), 3);
        for a in &streamed {
            assert!(a.analysis.moves.is_some(), "{a:?}");
            assert!(a.analysis.luck.is_some());
        }
    }

    #[test]
    fn a_cancelled_analysis_stops_and_is_not_delivered() {
        let (pool, replies) = JobPool::with_nets(nets(), BearoffSource::Without, 1, 1);
        let analysis = |id: u64| {
            let (results, incoming) = async_channel::unbounded();
            let job = Job::new(
                JobId(id),
                JobKind::Analysis {
                    record: Box::new(short_record()),
                    settings: Box::new(AnalysisSettings::default()),
                    threads: 1,
                    results,
                },
            );
            (job, incoming)
        };
        // Cancelled in the queue: never runs.
        let (job, incoming) = analysis(6);
        let handle = job.handle();
        handle.cancel();
        pool.submit(job);
        assert!(matches!(recv(&replies), Reply::Cancelled { id: JobId(6) }));
        assert!(incoming.try_recv().is_err());
        // Cancelled once it runs: it answers Cancelled, never Done.
        let (job, _incoming) = analysis(7);
        let handle = job.handle();
        pool.submit(job);
        loop {
            match recv(&replies) {
                Reply::Progress { id: JobId(7), .. } => handle.cancel(),
                Reply::Cancelled { id: JobId(7) } => break,
                other => panic!("a cancelled analysis is not done: {other:?}"),
            }
        }
    }

    #[test]
    fn dropping_the_pool_stops_the_workers() {
        let (pool, replies) = JobPool::with_nets(nets(), BearoffSource::Without, 2, 2);
        let (go, wait) = mpsc::channel();
        pool.submit(Job::new(JobId(1), blocking_task(wait, 1)));
        let g = game("31");
        // Queued behind the blocked task on one worker... or run by the other: either way it
        // answers once.
        pool.submit(hint_job(2, &g, Level::Beginner));
        assert_eq!(recv(&replies).id(), JobId(2));
        drop(pool);
        go.send(()).unwrap();
        // The running task still answers; then both workers end and the channel closes.
        assert_eq!(recv(&replies).id(), JobId(1));
        for _ in 0..600 {
            if replies.is_closed() || replies.sender_count() == 0 {
                break;
            }
            thread::sleep(Duration::from_millis(50));
        }
        assert!(replies.recv_blocking().is_err(), "the workers are gone");
    }
}
