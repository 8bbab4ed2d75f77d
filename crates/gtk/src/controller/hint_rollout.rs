//! The hint window's "Rollout" level: instead of an n-ply hint, the decision at hand is rolled
//! out by the engine ([`hint::rollout_hint`]) on the job pool (`JobKind::Task`, with the
//! worker's nets and bearoff databases) with the rollout settings of the analysis pane's "Roll
//! out" (`analysis_view::ROLLOUT_TRIALS` trials, the engine's default rollout settings, the best
//! `analysis_view::ROLLOUT_CANDIDATES` plays), reporting its trials as it goes and stopping
//! within a trial when the user presses Stop. The answer is an ordinary engine `Hint` whose
//! figures are the rollout's, so the hint window shows it in the same table as the other
//! levels. This file is only the plumbing: the job, and its progress and answer turned into
//! [`HintUpdate`]s.

use std::time::{Duration, Instant};

use cubeful_engine::analysis::hint::{self, Query, RolloutHint, RolloutHintError};
use cubeful_engine::search::rollout::RolloutSettings;

use super::{Controller, Effect, HintUpdate, HintView};
use crate::analysis_view::{ROLLOUT_CANDIDATES, ROLLOUT_TRIALS};
use crate::jobs::{JobId, JobKind, Output, Reply};

/// The rollout's trials reach the window at most this often.
const PROGRESS: Duration = Duration::from_millis(150);

/// What the rollout job answers.
type Outcome = Result<RolloutHint, RolloutHintError>;

/// The rollout settings of the app (those of the analysis pane's "Roll out") with `threads`.
pub fn rollout_settings(threads: usize) -> RolloutSettings {
    RolloutSettings {
        trials: ROLLOUT_TRIALS,
        threads: threads.max(1),
        ..RolloutSettings::default()
    }
}

/// The job rolling out the hint of `query`.
pub(super) fn rollout_job(query: Query) -> JobKind {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    rollout_job_with(query, rollout_settings(threads))
}

/// The job rolling out the hint of `query` with `settings`: it answers an [`Outcome`].
fn rollout_job_with(query: Query, settings: RolloutSettings) -> JobKind {
    JobKind::Task(Box::new(move |search, progress| {
        let mut reported: Option<Instant> = None;
        let outcome: Outcome = hint::rollout_hint(
            search,
            &query,
            &settings,
            ROLLOUT_CANDIDATES,
            &mut |done, target| {
                // The window follows at most every PROGRESS, and at the end.
                if reported.is_none_or(|t| t.elapsed() >= PROGRESS) || done >= target {
                    reported = Some(Instant::now());
                    progress.report(u64::from(done), u64::from(target));
                }
                !progress.is_cancelled()
            },
        );
        Box::new(outcome)
    }))
}

impl Controller {
    /// The hint window's level menu chose "Rollout" (`on`) or left it: the decision is asked
    /// again the new way.
    pub fn set_hint_rollout(&mut self, on: bool) -> Vec<Effect> {
        let mut fx = Vec::new();
        if let Some(request) = self.hint.as_mut() {
            if request.rollout != on {
                request.rollout = on;
                request.view = HintView::Unknown;
                self.update_hint(&mut fx);
            }
        }
        fx
    }

    /// The hint job is `id` and it is a rollout.
    pub(super) fn is_hint_rollout(&self, id: JobId) -> bool {
        self.hint
            .as_ref()
            .is_some_and(|r| r.rollout && r.job.as_ref().map(|j| j.id) == Some(id))
    }

    /// A reply about the hint's rollout: its trials, or its answer.
    pub(super) fn hint_rollout_reply(&mut self, fx: &mut Vec<Effect>, reply: Reply) {
        match reply {
            Reply::Progress { done, total, .. } => fx.push(Effect::Hint(HintUpdate::Progress {
                trials: u32::try_from(done).unwrap_or(u32::MAX),
                target: u32::try_from(total).unwrap_or(u32::MAX),
            })),
            Reply::Done {
                output: Output::Task(any),
                ..
            } => {
                if let Some(request) = self.hint.as_mut() {
                    request.job = None;
                }
                match any.downcast::<Outcome>().map(|b| *b) {
                    Ok(Ok(rolled)) => {
                        let (mover, opponent) = self.hint_names();
                        fx.push(Effect::Hint(HintUpdate::RolledOut {
                            hint: rolled.hint,
                            mover,
                            opponent,
                            rolled: rolled.rolled,
                            trials: rolled.trials,
                        }));
                    }
                    Ok(Err(RolloutHintError::NotAvailable)) => {
                        fx.push(Effect::Hint(HintUpdate::NoRollout));
                    }
                    Ok(Err(RolloutHintError::Stopped)) | Err(_) => {
                        fx.push(Effect::Hint(HintUpdate::Stopped));
                    }
                }
            }
            Reply::Done { .. } | Reply::Cancelled { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;
    use std::sync::Arc;

    use cubeful_engine::analysis::hint::{Hint, Question};
    use cubeful_engine::eval::Nets;
    use cubeful_engine::search::Search;
    use cubeful_engine::{Dice, MatchState, Player, Position};

    use super::*;
    use crate::jobs::{BearoffSource, Job, JobPool};

    fn small() -> RolloutSettings {
        RolloutSettings {
            trials: 36,
            ..rollout_settings(2)
        }
    }

    fn recv(replies: &async_channel::Receiver<Reply>) -> Reply {
        for _ in 0..1200 {
            if let Ok(r) = replies.try_recv() {
                return r;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("no reply within 60 s");
    }

    #[test]
    fn the_job_rolls_out_on_a_worker_with_its_bearoff_databases() {
        // A bearoff: the rolled-out plays are worth exactly what the worker's two-sided
        // database gives the opponent after them.
        let position = Position::from_points(&[(6, 1), (5, 1), (4, 1)], &[(6, 2), (5, 1)]).unwrap();
        let dice = Dice::new(2, 1).unwrap();
        let query = Query {
            position,
            state: MatchState {
                on_roll: Player::One,
                turn: Player::One,
                dice: Some(dice),
                ..MatchState::money()
            },
            beavers: true,
            question: Question::Move(dice),
        };
        let (pool, replies) =
            JobPool::with_nets(Arc::new(Nets::embedded()), BearoffSource::Generate, 1, 1);
        pool.submit(Job::new(JobId(4), rollout_job_with(query, small())));
        let mut trials = Vec::new();
        let outcome = loop {
            match recv(&replies) {
                Reply::Progress {
                    id, done, total, ..
                } => {
                    assert_eq!((id, total), (JobId(4), 36));
                    trials.push(done);
                }
                Reply::Done {
                    id,
                    output: Output::Task(any),
                } => {
                    assert_eq!(id, JobId(4));
                    break *any.downcast::<Outcome>().expect("a rollout outcome");
                }
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(trials.last(), Some(&36), "the last trial is reported");
        let rolled = outcome.expect("rolled out");
        let Hint::Moves(h) = &rolled.hint else {
            panic!("a play list expected");
        };
        assert!(rolled.rolled >= 2);
        assert_eq!(rolled.trials, 36);
        let db = cubeful_engine::eval::bearoff::BearoffDb::generate(&mut |_| {});
        for m in &h.moves[..rolled.rolled] {
            let exact = db.two_sided_values(&m.mv.position.swap()).unwrap();
            assert!((m.equity + exact.centred).abs() < 1e-3, "{m:?}");
        }
    }

    /// A match against the bot where Ann (a person) acts first.
    fn ann_first() -> Controller {
        let prefs = crate::controller::Preferences {
            animate: false,
            auto_forced_moves: false,
            auto_next_game: false,
        };
        for seed in 1.. {
            let mut c = Controller::new(prefs);
            c.new_match(crate::session::MatchSetup {
                length: 5,
                opponent: crate::session::Opponent::Bot(cubeful_engine::search::Level::Beginner),
                names: ["Ann".into(), "Bot".into()],
                seed: Some(seed),
                ..crate::session::MatchSetup::default()
            });
            if c.state() == crate::controller::State::HumanToAct {
                return c;
            }
        }
        unreachable!()
    }

    fn updates(fx: &[Effect]) -> Vec<HintUpdate> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Hint(h) => Some(h.clone()),
                _ => None,
            })
            .collect()
    }

    fn the_job(fx: Vec<Effect>) -> crate::jobs::Job {
        let mut jobs: Vec<_> = fx
            .into_iter()
            .filter_map(|e| match e {
                Effect::Submit(job) => Some(job),
                _ => None,
            })
            .collect();
        assert_eq!(jobs.len(), 1, "{jobs:?}");
        jobs.remove(0)
    }

    #[test]
    fn the_controller_rolls_out_the_hint_shows_its_trials_and_stops_it() {
        use cubeful_engine::search::Level;
        let mut c = ann_first();
        let hint = the_job(c.open_hint(Level::Beginner));
        // "Rollout" chosen: the hint is cancelled, a rollout task asked instead.
        let fx = c.set_hint_rollout(true);
        assert_eq!(updates(&fx), vec![HintUpdate::Thinking]);
        assert!(hint.cancel.load(Ordering::Relaxed));
        let job = the_job(fx);
        assert!(matches!(job.kind, JobKind::Task(_)), "{job:?}");
        assert_eq!(c.pending_hint(), Some(job.id));
        assert!(c.set_hint_rollout(true).is_empty(), "asked already");
        // Its trials, then its answer (computed here with fewer trials).
        let fx = c.reply(Reply::Progress {
            id: job.id,
            done: 100,
            total: 1296,
            trials: None,
        });
        assert_eq!(
            updates(&fx),
            vec![HintUpdate::Progress {
                trials: 100,
                target: 1296
            }]
        );
        let query = Query::from_game(c.session().unwrap().game()).unwrap();
        let mut search = Search::new(Arc::new(Nets::embedded()));
        let outcome: Outcome = hint::rollout_hint(
            &mut search,
            &query,
            &small(),
            ROLLOUT_CANDIDATES,
            &mut |_, _| true,
        );
        let expected = outcome.clone().expect("rolled out");
        let fx = c.reply(Reply::Done {
            id: job.id,
            output: Output::Task(Box::new(outcome)),
        });
        match &updates(&fx)[..] {
            [HintUpdate::RolledOut {
                hint,
                mover,
                opponent,
                rolled,
                trials,
            }] => {
                assert_eq!(hint, &expected.hint);
                assert_eq!((mover.as_str(), opponent.as_str()), ("Ann", "Bot"));
                assert_eq!((*rolled, *trials), (expected.rolled, 36));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(c.pending_hint(), None);
        // Back to a level: an ordinary hint.
        let fx = c.set_hint_rollout(false);
        assert!(matches!(the_job(fx).kind, JobKind::Hint { .. }));
        // A decision the engine does not roll out.
        let job = the_job(c.set_hint_rollout(true));
        let none: Outcome = Err(RolloutHintError::NotAvailable);
        let fx = c.reply(Reply::Done {
            id: job.id,
            output: Output::Task(Box::new(none)),
        });
        assert_eq!(updates(&fx), vec![HintUpdate::NoRollout]);
        assert!(matches!(
            the_job(c.set_hint_rollout(false)).kind,
            JobKind::Hint { .. }
        ));
        // Rollout again, stopped: cancelled, and its late trials are not shown.
        let job = the_job(c.set_hint_rollout(true));
        assert_eq!(updates(&c.stop_hint()), vec![HintUpdate::Stopped]);
        assert!(job.cancel.load(Ordering::Relaxed));
        let late = c.reply(Reply::Progress {
            id: job.id,
            done: 5,
            total: 1296,
            trials: None,
        });
        assert!(late.is_empty(), "{late:?}");
    }
}
