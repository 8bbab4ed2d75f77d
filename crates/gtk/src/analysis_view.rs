//! What the analysis pane shows about one action of the record, as text, without GTK: the
//! ranked candidate plays of a checker play (rank, move in GNU Backgammon notation, equity,
//! difference to the best, both sides' chances, the level or "Rollout" with its standard
//! error, the play made marked), the cube decision (no double, double/take, double/pass, the
//! proper action and the error of what was done) and the luck of the roll.
//!
//! Every figure is the stored one ([`ActionAnalysis`]): nothing is evaluated here. Equities are
//! GNU Backgammon's normalised equities (EMG in match play), as its analysis window shows them
//! by default; numbers are written for the user's locale ([`crate::format`]).

use cubeful_engine::analysis::marks::{checker_error, cube_judgement, doubler_of};
use cubeful_engine::cube::met::MatchEquityTable;
use cubeful_engine::formats::notation::format_move;
use cubeful_engine::game::record::analysis::{
    CandidateEval, CubeAnalysis, EvalSource, Luck, MoveAnalysis, Skill,
};
use cubeful_engine::game::record::{ActionAnalysis, MatchRecord, RecordAction, Replay};
use cubeful_engine::rules::moves::Move;
use cubeful_engine::rules::position::Position;
use cubeful_engine::Player;

use crate::format;
use crate::i18n::{gettext, gettext_f};

/// Decimals of equities, as GNU Backgammon shows them.
const EQUITY_DECIMALS: usize = 3;

/// One candidate play of a checker-play analysis, ready to show.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateRow {
    /// From 1, best first.
    pub rank: usize,
    /// The play in GNU Backgammon notation ("24/21 13/10").
    pub text: String,
    /// The equity ("-0.013"), or "" when the candidate was not evaluated.
    pub equity: String,
    /// The difference to the best play ("-0.003"); "" for the best play and unevaluated ones.
    pub difference: String,
    /// The mover's chances to win, win a gammon, win a backgammon, then the opponent's
    /// ("0.502", "0.129", …); empty when not evaluated.
    pub chances: Vec<String>,
    /// How it was evaluated: "Cubeful 2-ply", "Rollout ± 0.004".
    pub level: String,
    /// This is the play made.
    pub played: bool,
    /// The play itself (for showing it on the board).
    pub mv: Move,
}

/// One line of the cube decision: an action and its equity.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeRow {
    /// "No double", "Double, take", "Double, pass".
    pub label: String,
    pub equity: String,
    /// The difference to the proper action ("" for the proper one).
    pub difference: String,
    /// This row is the proper action.
    pub best: bool,
}

/// The cube decision an action answers or skips.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeView {
    /// Whose decision it is ("Cube decision of Ann").
    pub title: String,
    /// The chances of the doubler without a double: win, gammon, backgammon, then the
    /// opponent's.
    pub chances: Vec<String>,
    pub rows: Vec<CubeRow>,
    /// "Proper cube action: Double, take".
    pub proper: String,
    /// The error of the action taken ("Error: -0.084"), when there is one to speak of.
    pub error: Option<String>,
    /// "Cubeful 2-ply", "Rollout".
    pub level: String,
}

/// Everything the pane shows about one action.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionView {
    /// What happened ("Ann: 43 24/20 13/10").
    pub heading: String,
    /// The mark of the action ("Bad"), "" for none.
    pub skill: String,
    /// The mark of the cube decision before a checker play, "" for none.
    pub cube_skill: String,
    /// The roll's luck ("Luck: +0.015 (lucky)").
    pub luck: Option<String>,
    pub cube: Option<CubeView>,
    pub moves: Vec<CandidateRow>,
    /// The action carries analysis.
    pub analysed: bool,
}

/// The name of a skill mark, translated ("" for none).
pub fn skill_text(skill: Skill) -> String {
    match skill {
        Skill::None => String::new(),
        Skill::Doubtful => gettext("Doubtful"),
        Skill::Bad => gettext("Bad"),
        Skill::VeryBad => gettext("Very bad"),
    }
}

/// The name of a luck mark, translated ("" for none).
pub fn luck_text(luck: Luck) -> String {
    match luck {
        Luck::VeryUnlucky => gettext("very unlucky"),
        Luck::Unlucky => gettext("unlucky"),
        Luck::None => String::new(),
        Luck::Lucky => gettext("lucky"),
        Luck::VeryLucky => gettext("very lucky"),
    }
}

/// An equity with its sign ("+0.123", "-0,041").
pub fn signed(value: f64, decimals: usize) -> String {
    let text = format::number(value, decimals);
    if value.is_finite() && !text.starts_with('-') {
        format!("+{text}")
    } else {
        text
    }
}

/// How a figure was obtained, as GNU Backgammon labels it: "Cubeful 2-ply", "Cubeless 0-ply",
/// "Rollout ± 0.004" (the standard error of the cubeful equity).
pub fn source_text(source: &EvalSource) -> String {
    match source {
        EvalSource::Eval(ctx) => {
            let plies = ctx.plies.to_string();
            if ctx.cubeful {
                gettext_f("Cubeful {}-ply", &[&plies])
            } else {
                gettext_f("Cubeless {}-ply", &[&plies])
            }
        }
        EvalSource::Rollout(stats) => {
            let se = stats.std_dev[6];
            if se > 0.0 {
                gettext_f("Rollout ± {}", &[&format::number(se, EQUITY_DECIMALS)])
            } else {
                gettext("Rollout")
            }
        }
    }
}

/// Six chances from five cumulative outputs: the mover's win, gammon, backgammon, then the
/// opponent's.
fn chances(p: &[f64]) -> Vec<String> {
    let lose = 1.0 - p[0];
    [p[0], p[1], p[2], lose, p[3], p[4]]
        .iter()
        .map(|&x| format::number(x, EQUITY_DECIMALS))
        .collect()
}

/// The candidate rows of a checker-play analysis; `before` is the position the mover played
/// from (his view).
pub fn candidate_rows(moves: &MoveAnalysis, before: &Position) -> Vec<CandidateRow> {
    let best = moves
        .candidates
        .first()
        .and_then(|c| c.eval.as_ref())
        .map(|e| e.equity);
    moves
        .candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (equity, difference, chances, level) = match &c.eval {
                Some(CandidateEval {
                    probabilities,
                    equity,
                    source,
                }) => (
                    signed(*equity, EQUITY_DECIMALS),
                    match best {
                        Some(b) if i > 0 => signed(*equity - b, EQUITY_DECIMALS),
                        _ => String::new(),
                    },
                    chances(probabilities),
                    source_text(source),
                ),
                None => (String::new(), String::new(), Vec::new(), String::new()),
            };
            CandidateRow {
                rank: i + 1,
                text: format_move(before, &c.mv),
                equity,
                difference,
                chances,
                level,
                played: i == moves.played,
                mv: c.mv,
            }
        })
        .collect()
}

/// The cube decision `cube` of `doubler` at `before`, and the error of what `action` did about it.
fn cube_view(
    record: &MatchRecord,
    replay: &Replay,
    game: usize,
    entry: usize,
    action: &RecordAction,
    cube: &CubeAnalysis,
) -> Option<CubeView> {
    let doubler = doubler_of(action)?;
    let before = replay.game(game)?.before(entry)?;
    let met = MatchEquityTable::kazaross_xg2();
    let j = cube_judgement(cube, before, doubler, &record.info, met);
    let optimal = j.optimal;
    let redouble = before.state.cube_log2 > 0;
    let row = |label: String, value: f64| CubeRow {
        label,
        equity: signed(value, EQUITY_DECIMALS),
        difference: if (value - optimal).abs() < 5e-7 {
            String::new()
        } else {
            signed(value - optimal, EQUITY_DECIMALS)
        },
        best: (value - optimal).abs() < 5e-7,
    };
    let rows = vec![
        row(
            if redouble {
                gettext("No redouble")
            } else {
                gettext("No double")
            },
            j.no_double,
        ),
        row(
            if redouble {
                gettext("Redouble, take")
            } else {
                gettext("Double, take")
            },
            j.double_take,
        ),
        row(
            if redouble {
                gettext("Redouble, pass")
            } else {
                gettext("Double, pass")
            },
            j.double_pass,
        ),
    ];
    let error = match action {
        RecordAction::Move { .. } if j.available => Some(j.no_double_error()),
        RecordAction::Double { .. } if j.available => Some(j.double_error()),
        RecordAction::Take { .. } => Some(j.take_error()),
        RecordAction::Drop { .. } => Some(j.pass_error()),
        _ => None,
    };
    let name = player_name(record, doubler);
    Some(CubeView {
        title: gettext_f("Cube decision of {}", &[&name]),
        chances: chances(&cube.no_double[..5]),
        rows,
        proper: gettext_f("Proper cube action: {}", &[&gettext(j.action.text())]),
        error: error
            .filter(|e| e.abs() >= 5e-4)
            .map(|e| gettext_f("Error: {}", &[&signed(e, EQUITY_DECIMALS)])),
        level: source_text(&cube.source),
    })
}

/// The player's name from the record, or "Player 1"/"Player 2".
pub fn player_name(record: &MatchRecord, player: Player) -> String {
    let name = &record.info.players[player.index()];
    if name.is_empty() {
        gettext_f("Player {}", &[&(player.index() + 1).to_string()])
    } else {
        name.clone()
    }
}

/// What the pane shows about entry `entry` of game `game` of `record` (replayed as `replay`);
/// `None` when there is no such action or it was not replayed.
pub fn action_view(
    record: &MatchRecord,
    replay: &Replay,
    game: usize,
    entry: usize,
) -> Option<ActionView> {
    let e = record.games.get(game)?.entries.get(entry)?;
    let replayed = replay.game(game)?;
    replayed.before(entry)?;
    let player = e.action.player();
    let name = player_name(record, player);
    let heading = match &e.action {
        RecordAction::Move { dice, mv, .. } => {
            let before = replayed.rolled(entry).map(|s| s.position);
            let text = before.map(|p| format_move(&p, mv)).unwrap_or_default();
            format!("{name}: {}{} {text}", dice.first(), dice.second())
        }
        RecordAction::Roll { dice, .. } => format!("{name}: {}{}", dice.first(), dice.second()),
        RecordAction::Double { .. } => gettext_f("{}: doubles", &[&name]),
        RecordAction::Take { .. } => gettext_f("{}: takes", &[&name]),
        RecordAction::Drop { .. } => gettext_f("{}: passes", &[&name]),
        RecordAction::Beaver { .. } => gettext_f("{}: beavers", &[&name]),
        _ => format!(
            "{name}: {}",
            cubeful_engine::game::record::replay::describe(&e.action)
        ),
    };
    let empty = ActionAnalysis::default();
    let a: &ActionAnalysis = e.analysis.as_deref().unwrap_or(&empty);
    let moves = match (&a.moves, replayed.rolled(entry)) {
        (Some(m), Some(rolled)) => candidate_rows(m, &rolled.position),
        _ => Vec::new(),
    };
    let cube = a
        .cube
        .as_ref()
        .and_then(|c| cube_view(record, replay, game, entry, &e.action, c));
    let luck = a.luck.filter(|l| l.is_finite()).map(|l| {
        let mark = luck_text(a.luck_mark);
        if mark.is_empty() {
            gettext_f("Luck: {}", &[&signed(l, EQUITY_DECIMALS)])
        } else {
            gettext_f("Luck: {} ({})", &[&signed(l, EQUITY_DECIMALS), &mark])
        }
    });
    Some(ActionView {
        heading,
        skill: skill_text(a.skill),
        cube_skill: skill_text(a.cube_skill),
        luck,
        cube,
        moves,
        analysed: e.analysis.is_some(),
    })
}

/// The error of the play made, for a caller that wants the number.
pub fn played_error(analysis: &ActionAnalysis) -> Option<f64> {
    analysis.moves.as_ref().and_then(checker_error)
}

/// The position after `mv` played by the mover of entry `entry` of game `game` (the mover's
/// view before the move is the replay's `rolled` snapshot), seen from the mover: for showing a
/// candidate on the board. `None` when `mv` is not a legal play of the roll.
pub fn position_after(replay: &Replay, game: usize, entry: usize, mv: &Move) -> Option<Position> {
    let rolled = replay.game(game)?.rolled(entry)?;
    let dice = rolled.state.dice?;
    let text = format_move(&rolled.position, mv);
    cubeful_engine::rules::movegen::legal_moves(&rolled.position, dice)
        .into_iter()
        .find(|l| format_move(&rolled.position, &l.mv) == text)
        .map(|l| l.position)
}

/// What an analysis run is asked to cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every action of the match (what is analysed as well as asked already is kept).
    Match,
    /// Every action of one game (from 0).
    Game(usize),
    /// One decision, analysed again whatever it had: action `entry` of game `game` (a double
    /// and its answer go together).
    Action { game: usize, entry: usize },
}

/// How carefully: an n-ply evaluation, or a rollout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    Plies(u8),
    Rollout,
}

/// Trials of a rollout asked for in the pane.
pub const ROLLOUT_TRIALS: u32 = 1296;
/// Plays rolled out besides the play made.
pub const ROLLOUT_CANDIDATES: usize = 4;

/// What to hand the engine's analysis for `scope`: the record to analyse (a copy cut to what
/// the scope needs), the settings, and the index of the copy's first game in `record` (the
/// results' game numbers are the copy's). `None` when the scope names no action of `record`.
pub fn analysis_request(
    record: &MatchRecord,
    scope: Scope,
    depth: Depth,
    threads: usize,
) -> Option<(
    MatchRecord,
    cubeful_engine::analysis::analyse::AnalysisSettings,
    usize,
)> {
    use cubeful_engine::analysis::analyse::{AnalysisLevel, AnalysisSettings, Existing};
    use cubeful_engine::search::rollout::RolloutSettings;
    let level = match depth {
        Depth::Plies(n) => AnalysisLevel::plies(n),
        Depth::Rollout => AnalysisLevel::rollout(
            *AnalysisLevel::plies(0).eval_settings(),
            ROLLOUT_CANDIDATES,
            RolloutSettings {
                trials: ROLLOUT_TRIALS,
                threads: threads.max(1),
                ..RolloutSettings::default()
            },
        ),
    };
    let mut settings = AnalysisSettings {
        checker: level.clone(),
        cube: level,
        ..AnalysisSettings::default()
    };
    let single = |g: usize| -> Option<MatchRecord> {
        Some(MatchRecord {
            info: record.info.clone(),
            games: vec![record.games.get(g)?.clone()],
        })
    };
    match scope {
        Scope::Match => (!record.games.is_empty()).then(|| (record.clone(), settings, 0)),
        Scope::Game(g) => single(g).map(|r| (r, settings, g)),
        Scope::Action { game, entry } => {
            let mut copy = single(game)?;
            let g = &mut copy.games[0];
            let action = &g.entries.get(entry)?.action;
            let answer = |a: Option<&RecordAction>| {
                matches!(
                    a,
                    Some(RecordAction::Take { .. } | RecordAction::Drop { .. })
                )
            };
            let mut targets = vec![entry];
            let mut end = entry + 1;
            match action {
                RecordAction::Double { .. }
                    if answer(g.entries.get(entry + 1).map(|e| &e.action)) =>
                {
                    targets.push(entry + 1);
                    end += 1;
                }
                RecordAction::Take { .. } | RecordAction::Drop { .. } if entry > 0 => {
                    if matches!(g.entries[entry - 1].action, RecordAction::Double { .. }) {
                        targets.push(entry - 1);
                    }
                }
                _ => {}
            }
            g.entries.truncate(end);
            g.result = None;
            // Only the targets lack analysis; everything else is kept as it is.
            for (i, e) in g.entries.iter_mut().enumerate() {
                if targets.contains(&i) {
                    e.analysis = None;
                } else if e.analysis.is_none() {
                    e.analysis = Some(Box::default());
                }
            }
            settings.existing = Existing::Keep;
            Some((copy, settings, game))
        }
    }
}

/// One section of the statistics table: its title and rows (label, player 0's value, player
/// 1's value), ready to show.
#[derive(Clone, Debug, PartialEq)]
pub struct StatisticsSection {
    pub title: String,
    pub rows: Vec<[String; 3]>,
}

/// GNU Backgammon's statistics table (the rows of `show statistics match`) of the whole match
/// (`game == None`) or of one game (from 0), labels translated and numbers written for the
/// locale. Empty when there is no such game.
pub fn statistics_table(
    stats: &cubeful_engine::analysis::stats::MatchStatistics,
    game: Option<usize>,
) -> Vec<StatisticsSection> {
    use cubeful_engine::analysis::stats::report::{sections, ReportStyle};
    let scoped;
    let stats = match game {
        None => stats,
        Some(g) => {
            let Some(one) = stats.games.get(g) else {
                return Vec::new();
            };
            let mut copy = stats.clone();
            copy.total = one.statistics.clone();
            copy.games = vec![one.clone()];
            scoped = copy;
            &scoped
        }
    };
    sections(stats, &ReportStyle::default())
        .into_iter()
        .map(|section| StatisticsSection {
            title: statistics_label(section.title),
            rows: section
                .rows
                .iter()
                .map(|r| {
                    [
                        statistics_label(&r.label),
                        localised(&r.values[0]),
                        localised(&r.values[1]),
                    ]
                })
                .collect(),
        })
        .collect()
}

/// A value of the statistics report for the locale: GNU Backgammon's padding dropped, the
/// decimal point of every number replaced by the locale's separator.
pub fn localised(value: &str) -> String {
    localised_with(value, format::decimal_separator())
}

fn localised_with(value: &str, separator: &str) -> String {
    let squeezed = value.split_whitespace().collect::<Vec<_>>().join(" ");
    // "( -0.953%)" reads better as "(-0.953%)".
    let squeezed = squeezed.replace("( ", "(");
    let chars: Vec<char> = squeezed.chars().collect();
    let mut out = String::with_capacity(squeezed.len());
    for (i, &c) in chars.iter().enumerate() {
        let digit = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_ascii_digit())
        };
        if c == '.' && digit(i.checked_sub(1)) && digit(Some(i + 1)) {
            out.push_str(separator);
        } else {
            out.push(c);
        }
    }
    // Ratings and other words are translated as a whole.
    statistics_word(&out)
}

/// A word value of the report (a rating, "n/a") translated; numbers unchanged.
fn statistics_word(value: &str) -> String {
    match value {
        "n/a" => gettext("n/a"),
        "Awful!" => gettext("Awful!"),
        "Beginner" => gettext("Beginner"),
        "Casual player" => gettext("Casual player"),
        "Intermediate" => gettext("Intermediate"),
        "Advanced" => gettext("Advanced"),
        "Expert" => gettext("Expert"),
        "World class" => gettext("World class"),
        "Supernatural" => gettext("Supernatural"),
        "Go to bed" => gettext("Go to bed"),
        "Bad dice, man!" => gettext("Bad dice, man!"),
        "None" => gettext("None"),
        "Good dice, man!" => gettext("Good dice, man!"),
        "Go to Las Vegas" => gettext("Go to Las Vegas"),
        other => other.to_string(),
    }
}

/// A label or title of the statistics report, translated (labels the table does not know are
/// shown as the engine writes them).
pub fn statistics_label(label: &str) -> String {
    let unit = |l: &str| -> Option<(String, &'static str)> {
        for (suffix, unit) in [(" (MWC)", "MWC"), (" (Points)", "Points")] {
            if let Some(stem) = l.strip_suffix(suffix) {
                return Some((stem.to_string(), unit));
            }
        }
        None
    };
    let fixed = match label {
        "Chequerplay statistics" => Some(gettext("Chequerplay statistics")),
        "Luck statistics" => Some(gettext("Luck statistics")),
        "Cube statistics" => Some(gettext("Cube statistics")),
        "Overall statistics" => Some(gettext("Overall statistics")),
        "Total moves" => Some(gettext("Total moves")),
        "Unforced moves" => Some(gettext("Unforced moves")),
        "Unmarked moves" => Some(gettext("Unmarked moves")),
        "Moves marked doubtful" => Some(gettext("Moves marked doubtful")),
        "Moves marked bad" => Some(gettext("Moves marked bad")),
        "Moves marked very bad" => Some(gettext("Moves marked very bad")),
        "Chequerplay rating" => Some(gettext("Chequerplay rating")),
        "Rolls marked very lucky" => Some(gettext("Rolls marked very lucky")),
        "Rolls marked lucky" => Some(gettext("Rolls marked lucky")),
        "Rolls unmarked" => Some(gettext("Rolls unmarked")),
        "Rolls marked unlucky" => Some(gettext("Rolls marked unlucky")),
        "Rolls marked very unlucky" => Some(gettext("Rolls marked very unlucky")),
        "Luck rating" => Some(gettext("Luck rating")),
        "Total cube decisions" => Some(gettext("Total cube decisions")),
        "Close or actual cube decisions" => Some(gettext("Close or actual cube decisions")),
        "Doubles" => Some(gettext("Doubles")),
        "Takes" => Some(gettext("Takes")),
        "Passes" => Some(gettext("Passes")),
        "Cube decision rating" => Some(gettext("Cube decision rating")),
        "Overall rating" => Some(gettext("Overall rating")),
        "Actual result" => Some(gettext("Actual result")),
        "Luck adjusted result" => Some(gettext("Luck adjusted result")),
        "Luck based FIBS rating diff." => Some(gettext("Luck based FIBS rating diff.")),
        _ => None,
    };
    if let Some(text) = fixed {
        return text;
    }
    if let Some((stem, u)) = unit(label) {
        let unit_name = if u == "MWC" {
            gettext("MWC")
        } else {
            gettext("Points")
        };
        let stem = match stem.as_str() {
            "Error total EMG" => gettext("Error total EMG"),
            "Error rate mEMG" => gettext("Error rate mEMG"),
            "Luck total EMG" => gettext("Luck total EMG"),
            "Luck rate mEMG" => gettext("Luck rate mEMG"),
            _ => stem,
        };
        return format!("{stem} ({unit_name})");
    }
    label.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::formats::match_file;

    fn load(name: &str) -> MatchRecord {
        let path = cubeful_testkit::shared_path("corpus/sgf").join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        match_file::read(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .record
    }

    /// The rows GNU Backgammon 1.07 shows for lasse's 43 at the start of game 2 of this match
    /// (its analysis window, docs/ui screenshot of the analysed game record): rank, level,
    /// equity, difference, play, and the chances line.
    #[test]
    fn checker_rows_are_what_gnu_backgammon_shows() {
        let record = load("gnubg-scripts_match1486073_analyzed.sgf");
        let replay = record.replay_lenient().unwrap().replay;
        let v = action_view(&record, &replay, 1, 0).unwrap();
        assert_eq!(v.heading, "lasse: 43 24/20 13/10");
        assert!(v.analysed);
        let row = |r: &CandidateRow| {
            format!(
                "{}{} {} {} {} {} | {}",
                r.rank,
                if r.played { "*" } else { "" },
                r.level,
                r.equity,
                r.difference,
                r.text,
                r.chances.join(" ")
            )
        };
        let rows: Vec<String> = v.moves.iter().take(3).map(row).collect();
        assert_eq!(
            rows,
            [
                "1 Cubeful 1-ply -0.013  24/21 24/20 | 0.502 0.129 0.008 0.498 0.135 0.005",
                "2 Cubeful 1-ply -0.015 -0.003 24/21 13/9 | 0.502 0.139 0.007 0.498 0.133 0.006",
                "3* Cubeful 1-ply -0.025 -0.012 24/20 13/10 | 0.497 0.137 0.007 0.503 0.134 0.006",
            ]
        );
        assert_eq!(v.moves.iter().filter(|r| r.played).count(), 1);
        // "Rolled 43 (+0.015)".
        assert_eq!(v.luck.as_deref(), Some("Luck: +0.015"));
        // Every legal play is listed, ranked best first.
        assert!(v.moves.len() > 10);
        assert!(v.moves.windows(2).all(|w| w[0].rank + 1 == w[1].rank));
    }

    #[test]
    fn a_candidate_is_shown_as_the_position_after_it() {
        let record = load("gnubg-scripts_match1486073_analyzed.sgf");
        let replay = record.replay_lenient().unwrap().replay;
        let v = action_view(&record, &replay, 1, 0).unwrap();
        let played = v.moves.iter().find(|r| r.played).unwrap();
        let after = position_after(&replay, 1, 0, &played.mv).unwrap();
        // The replay's position after the action is seen from the opponent, now on roll.
        let snapshot = replay.game(1).unwrap().after(0).unwrap();
        assert_eq!(after.swap(), snapshot.position);
        let best = position_after(&replay, 1, 0, &v.moves[0].mv).unwrap();
        assert_ne!(best, after);
        // A play of another roll is not a candidate.
        assert_eq!(position_after(&replay, 1, 1, &played.mv), None);
    }

    #[test]
    fn cube_decisions_show_the_three_equities_and_the_proper_action() {
        let record = load("gnubg-scripts_match1486073_analyzed.sgf");
        let replay = record.replay_lenient().unwrap().replay;
        let mut doubles = 0;
        for (g, game) in record.games.iter().enumerate() {
            for (i, e) in game.entries.iter().enumerate() {
                if !matches!(e.action, RecordAction::Double { .. }) {
                    continue;
                }
                let Some(v) = action_view(&record, &replay, g, i) else {
                    continue;
                };
                let Some(cube) = v.cube else { continue };
                doubles += 1;
                assert_eq!(cube.rows.len(), 3);
                assert!(cube.rows[0].label.starts_with("No "), "{cube:?}");
                assert_eq!(cube.rows[2].equity, "+1.000");
                assert_eq!(cube.rows.iter().filter(|r| r.best).count(), 1, "{cube:?}");
                assert!(cube
                    .rows
                    .iter()
                    .filter(|r| r.best)
                    .all(|r| r.difference.is_empty()));
                assert!(cube.proper.starts_with("Proper cube action: "), "{cube:?}");
                assert_eq!(cube.chances.len(), 6);
                assert!(cube.level.contains("ply") || cube.level.starts_with("Rollout"));
                assert!(v.heading.ends_with("doubles"), "{}", v.heading);
                // Doubling when doubling is right is no error.
                if !cube.rows[0].best {
                    assert_eq!(cube.error, None, "{cube:?}");
                }
            }
        }
        assert!(doubles > 0, "the match has analysed doubles");
    }

    #[test]
    fn the_statistics_table_has_gnu_backgammons_rows_per_match_and_game() {
        use cubeful_engine::analysis::stats::{match_statistics, StatsSettings};
        let record = load("gnubg-scripts_match1486073_analyzed.sgf");
        let stats = match_statistics(&record, &StatsSettings::default()).unwrap();
        let table = statistics_table(&stats, None);
        let titles: Vec<&str> = table.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Chequerplay statistics",
                "Luck statistics",
                "Cube statistics",
                "Overall statistics"
            ]
        );
        let total_moves = &table[0].rows[0];
        assert_eq!(total_moves[0], "Total moves");
        let moves: u32 = total_moves[1].parse().unwrap();
        assert!(moves > 10);
        // Per game: fewer moves, same rows.
        let game = statistics_table(&stats, Some(0));
        assert_eq!(game[0].rows.len(), table[0].rows.len());
        let first: u32 = game[0].rows[0][1].parse().unwrap();
        assert!(first < moves);
        assert!(statistics_table(&stats, Some(99)).is_empty());
        // The figures are the engine's report's, padding dropped.
        let error_rate = table[0]
            .rows
            .iter()
            .find(|r| r[0] == "Error rate mEMG (MWC)")
            .unwrap();
        assert!(!error_rate[1].starts_with(' '));
        assert!(error_rate[1].contains("%)"), "{error_rate:?}");
    }

    #[test]
    fn report_values_take_the_locales_separator() {
        assert_eq!(
            localised_with("     -1.204 (-22.871%)", ","),
            "-1,204 (-22,871%)"
        );
        assert_eq!(
            localised_with("    -50.2   ( -0.953%)", "."),
            "-50.2 (-0.953%)"
        );
        assert_eq!(localised_with(" 12", ","), "12");
        assert_eq!(localised_with("n/a", ","), "n/a");
        assert_eq!(localised_with("World class", "."), "World class");
    }

    #[test]
    fn one_decision_is_analysed_again_alone() {
        use cubeful_engine::analysis::analyse::{analyse, positions_to_analyse, Existing, Run};
        use std::sync::Arc;
        let record = load("gnubg-scripts_match1486073_analyzed.sgf");
        // A checker play: one position, at the asked depth, replacing what it had.
        let (copy, settings, first) = analysis_request(
            &record,
            Scope::Action { game: 1, entry: 2 },
            Depth::Plies(0),
            1,
        )
        .unwrap();
        assert_eq!(first, 1);
        assert_eq!(copy.games.len(), 1);
        assert_eq!(copy.games[0].entries.len(), 3);
        assert_eq!(settings.existing, Existing::Keep);
        assert_eq!(positions_to_analyse(&copy, &settings).unwrap(), 1);
        let run = Run {
            threads: 1,
            cancel: None,
            nets: Arc::new(cubeful_engine::eval::Nets::embedded()),
            bearoff: None,
        };
        let outcome = analyse(&copy, &settings, &run, &()).unwrap();
        assert_eq!(outcome.analysed.len(), 1);
        let a = &outcome.analysed[0];
        assert_eq!((a.game, a.entry), (0, 2));
        let moves = a.analysis.moves.as_ref().unwrap();
        let level = candidate_rows(moves, &Position::starting())[0]
            .level
            .clone();
        assert_eq!(level, "Cubeful 0-ply");
        // A double with its answer: both.
        let (g, e) = record
            .games
            .iter()
            .enumerate()
            .find_map(|(g, game)| {
                game.entries
                    .iter()
                    .position(|e| matches!(e.action, RecordAction::Take { .. }))
                    .map(|e| (g, e))
            })
            .unwrap();
        let (copy, settings, _) = analysis_request(
            &record,
            Scope::Action { game: g, entry: e },
            Depth::Plies(0),
            1,
        )
        .unwrap();
        assert_eq!(copy.games[0].entries.len(), e + 1);
        assert_eq!(positions_to_analyse(&copy, &settings).unwrap(), 1);
        let outcome = analyse(&copy, &settings, &run, &()).unwrap();
        let mut entries: Vec<usize> = outcome.analysed.iter().map(|a| a.entry).collect();
        entries.sort();
        assert_eq!(entries, [e - 1, e]);
        // Nothing there: nothing asked.
        assert!(analysis_request(
            &record,
            Scope::Action { game: 99, entry: 0 },
            Depth::Plies(0),
            1
        )
        .is_none());
        assert!(analysis_request(&record, Scope::Game(99), Depth::Plies(0), 1).is_none());
        let (copy, _, first) =
            analysis_request(&record, Scope::Game(1), Depth::Rollout, 1).unwrap();
        assert_eq!((copy.games.len(), first), (1, 1));
        assert_eq!(copy.games[0], record.games[1]);
    }

    #[test]
    fn signs_and_levels() {
        assert_eq!(signed(0.0123, 3), "+0.012");
        assert_eq!(signed(-0.0004, 3), "+0.000");
        assert_eq!(signed(-0.5, 3), "-0.500");
        assert_eq!(skill_text(Skill::VeryBad), "Very bad");
        assert_eq!(skill_text(Skill::None), "");
    }
}
