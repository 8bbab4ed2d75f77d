//! Match files on the command line: `convert IN OUT`, `match show FILE` and `match stats FILE`,
//! and the loading and saving the terminal session shares.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cubeful_engine::analysis::stats::figures::{player_figures, PlayerFigures, RatingScale};
use cubeful_engine::analysis::stats::html as stats_html;
use cubeful_engine::analysis::stats::report::{report, ReportStyle};
use cubeful_engine::analysis::stats::{match_statistics, MatchStatistics, StatsSettings};
use cubeful_engine::eval::class::classify;
use cubeful_engine::files::{read_regular, write_atomically};
use cubeful_engine::formats::match_file::{self, LoadedMatch, MatchFormat};
use cubeful_engine::game::record::{MatchRecord, RecordAction, Replay};
use cubeful_engine::{match_id, notation, position_id, Player, Resignation};
use serde::Serialize;

/// The largest match file read (the longest real matches are well under a megabyte).
const MAX_MATCH_FILE: u64 = 64 << 20;

/// Reads a match file (SGF or Jellyfish text, told apart by the contents) and checks it against
/// the rules: what cannot be replayed is cut off (as GNU Backgammon does), with a warning each.
pub fn load(path: &Path) -> Result<LoadedMatch> {
    let bytes = read_regular(path, MAX_MATCH_FILE)?;
    let mut loaded = match_file::read(&bytes).with_context(|| format!("{}", path.display()))?;
    let lenient = loaded
        .record
        .replay_lenient()
        .with_context(|| format!("{}", path.display()))?;
    for warning in &lenient.warnings {
        let mut text = warning.error.to_string();
        if warning.dropped > 0 {
            text.push_str(&format!(
                " ({} action{} left out)",
                warning.dropped,
                if warning.dropped == 1 { "" } else { "s" }
            ));
        }
        if !loaded.warnings.contains(&text) {
            loaded.warnings.push(text);
        }
    }
    loaded.record = lenient.record;
    Ok(loaded)
}

/// The record replayed as far as the rules allow.
fn replay(path: &Path, record: &MatchRecord) -> Result<Replay> {
    Ok(record
        .replay_lenient()
        .with_context(|| format!("{}", path.display()))?
        .replay)
}

/// The format a file name asks for.
pub fn format_for(path: &Path) -> Result<MatchFormat> {
    match MatchFormat::from_path(path) {
        Some(format) => Ok(format),
        None => bail!(
            "{}: name the file .sgf, .mat or .txt to say which format to write",
            path.display()
        ),
    }
}

/// Writes `record` to `path` atomically in `format`.
pub fn save(path: &Path, record: &MatchRecord, format: MatchFormat) -> Result<()> {
    let text = match_file::write(record, format)?;
    write_atomically(path, text.as_bytes())?;
    Ok(())
}

/// True if any action of the record carries analysis.
fn has_analysis(record: &MatchRecord) -> bool {
    record
        .games
        .iter()
        .flat_map(|g| &g.entries)
        .any(|e| e.analysis.is_some())
}

#[derive(clap::Args)]
pub struct ConvertArgs {
    /// The match to read: .sgf, .mat or .txt (Jellyfish match text).
    input: PathBuf,
    /// The file to write; its extension gives the format: .sgf, .mat or .txt (plain text).
    output: PathBuf,
}

/// `cubeful-cli convert IN OUT`.
pub fn convert(args: &ConvertArgs) -> Result<()> {
    let format = format_for(&args.output)?;
    let loaded = load(&args.input)?;
    for warning in &loaded.warnings {
        eprintln!("warning: {}: {warning}", args.input.display());
    }
    if has_analysis(&loaded.record) && !format.keeps_analysis() {
        eprintln!(
            "note: {} holds analysis, which the {format} format cannot keep",
            args.input.display()
        );
    }
    save(&args.output, &loaded.record, format)
}

#[derive(clap::Subcommand)]
pub enum MatchWhat {
    /// Every game and action of a match file, with the dice, the move in GNU Backgammon notation
    /// and the Position ID and Match ID before each action.
    Show {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// GNU Backgammon's `show statistics match` from the analysis stored in a match file (SGF
    /// or .mat), without analysing again: errors, luck, cube decisions, ratings, results.
    Stats {
        file: PathBuf,
        /// Print the statistics as JSON.
        #[arg(long)]
        json: bool,
        /// Also write a self-contained HTML page of the statistics and marked actions to this file.
        #[arg(long, value_name = "OUT.html")]
        html: Option<PathBuf>,
    },
}

/// `cubeful-cli match …`.
pub fn run(what: &MatchWhat) -> Result<()> {
    match what {
        MatchWhat::Show { file, json } => show(file, *json),
        MatchWhat::Stats { file, json, html } => stats(file, *json, html.as_deref()),
    }
}

#[derive(Serialize)]
struct ShownMatch {
    file: String,
    format: String,
    players: [String; 2],
    /// 0 for a money session.
    match_length: u16,
    crawford: bool,
    jacoby: bool,
    warnings: Vec<String>,
    games: Vec<ShownGame>,
}

#[derive(Serialize)]
struct ShownGame {
    number: usize,
    score: [u16; 2],
    crawford: bool,
    actions: Vec<ShownAction>,
    result: Option<ShownResult>,
}

#[derive(Serialize)]
struct ShownAction {
    number: usize,
    /// 0 or 1.
    player: u8,
    name: String,
    /// `move`, `roll`, `double`, `take`, `drop`, `beaver`, `resign`, `accept`, `reject`, `setup`.
    action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    dice: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    r#move: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    resignation: Option<&'static str>,
    /// Before the action (for a move: with the dice rolled, oriented to the mover).
    position_id: String,
    match_id: String,
    /// The position's class, as the engine judges it (`over`, `bearoff`, `race`, `crashed`,
    /// `contact`: GNU Backgammon's classes).
    class: &'static str,
}

#[derive(Serialize)]
struct ShownResult {
    winner: u8,
    points: u32,
    resigned: bool,
}

fn resignation_word(r: Resignation) -> &'static str {
    match r {
        Resignation::Single => "single",
        Resignation::Gammon => "gammon",
        Resignation::Backgammon => "backgammon",
    }
}

fn index(p: Player) -> u8 {
    match p {
        Player::Zero => 0,
        Player::One => 1,
    }
}

fn describe(path: &Path, loaded: &LoadedMatch) -> Result<ShownMatch> {
    let record = &loaded.record;
    let replay = replay(path, record)?;
    let names = &record.info.players;
    let mut games = Vec::new();
    for (g, (game, replayed)) in record.games.iter().zip(replay.games()).enumerate() {
        let mut actions = Vec::new();
        for (i, entry) in game.entries.iter().enumerate() {
            let player = entry.action.player();
            let shown_at = match entry.action {
                RecordAction::Move { .. } | RecordAction::Roll { .. } => {
                    replayed.rolled(i).or_else(|| replayed.before(i))
                }
                _ => replayed.before(i),
            };
            let Some(at) = shown_at else { break };
            let (action, dice, mv, resignation) = match &entry.action {
                RecordAction::Move { dice, mv, .. } => (
                    "move",
                    Some(dice.to_string()),
                    Some(notation::format_move(&at.position, mv)),
                    None,
                ),
                RecordAction::Roll { dice, .. } => ("roll", Some(dice.to_string()), None, None),
                RecordAction::Double { .. } => ("double", None, None, None),
                RecordAction::Take { .. } => ("take", None, None, None),
                RecordAction::Drop { .. } => ("drop", None, None, None),
                RecordAction::Beaver { .. } => ("beaver", None, None, None),
                RecordAction::Resign { resignation, .. } => {
                    ("resign", None, None, Some(resignation_word(*resignation)))
                }
                RecordAction::AcceptResignation { .. } => ("accept", None, None, None),
                RecordAction::RejectResignation { .. } => ("reject", None, None, None),
                RecordAction::SetUp(_) => ("setup", None, None, None),
            };
            actions.push(ShownAction {
                number: i + 1,
                player: index(player),
                name: names[index(player) as usize].clone(),
                action,
                dice,
                r#move: mv,
                resignation,
                position_id: position_id::encode(&at.position),
                match_id: match_id::encode(&at.state),
                class: classify(&at.position).name(),
            });
        }
        games.push(ShownGame {
            number: g + 1,
            score: game.score,
            crawford: game.crawford,
            actions,
            result: game.result.map(|r| ShownResult {
                winner: index(r.winner),
                points: r.points,
                resigned: r.resigned,
            }),
        });
    }
    Ok(ShownMatch {
        file: path.display().to_string(),
        format: loaded.format.to_string(),
        players: names.clone(),
        match_length: record.info.rules.match_length,
        crawford: record.info.rules.crawford,
        jacoby: record.info.rules.jacoby,
        warnings: loaded.warnings.clone(),
        games,
    })
}

fn show(path: &Path, json: bool) -> Result<()> {
    let loaded = load(path)?;
    let shown = describe(path, &loaded)?;
    if json {
        return print(&(serde_json::to_string_pretty(&shown)? + "\n"));
    }
    let mut out = String::new();
    for warning in &shown.warnings {
        eprintln!("warning: {}: {warning}", path.display());
    }
    let length = if shown.match_length == 0 {
        "money session".to_string()
    } else {
        format!("{}-point match", shown.match_length)
    };
    let _ = writeln!(
        out,
        "{} (O) vs {} (X), {length} ({})",
        shown.players[0], shown.players[1], shown.format
    );
    for game in &shown.games {
        out.push('\n');
        let _ = writeln!(
            out,
            "Game {}: {} {} – {} {}{}",
            game.number,
            shown.players[0],
            game.score[0],
            game.score[1],
            shown.players[1],
            if game.crawford { ", Crawford" } else { "" }
        );
        for a in &game.actions {
            let what = match a.action {
                "move" => {
                    let mv = a.r#move.as_deref().unwrap_or("");
                    let mv = if mv.is_empty() { "(no move)" } else { mv };
                    format!("{}: {mv}", a.dice.as_deref().unwrap_or(""))
                }
                "roll" => format!("{}: (rolled)", a.dice.as_deref().unwrap_or("")),
                "resign" => format!("resigns {}", a.resignation.unwrap_or("")),
                "accept" => "accepts the resignation".to_string(),
                "reject" => "rejects the resignation".to_string(),
                "double" => "doubles".to_string(),
                "take" => "takes".to_string(),
                "drop" => "drops".to_string(),
                "beaver" => "beavers".to_string(),
                _ => "sets up the position".to_string(),
            };
            let _ = writeln!(
                out,
                "{:>4}. {:<16} {:<28} {}:{}",
                a.number, a.name, what, a.position_id, a.match_id
            );
        }
        if let Some(r) = &game.result {
            let _ = writeln!(
                out,
                "      {} wins {} point{}{}",
                shown.players[r.winner as usize],
                r.points,
                if r.points == 1 { "" } else { "s" },
                if r.resigned { " (resignation)" } else { "" }
            );
        }
    }
    print(&out)
}

#[derive(Serialize)]
struct StatsOutput<'a> {
    file: String,
    format: String,
    warnings: &'a [String],
    /// The counts and sums, per game and for the match.
    statistics: &'a MatchStatistics,
    /// Rates, ratings and estimates derived from the match totals.
    figures: [PlayerFigures; 2],
}

/// `cubeful-cli match stats FILE [--json] [--html OUT.html]`.
fn stats(path: &Path, json: bool, html_out: Option<&Path>) -> Result<()> {
    let loaded = load(path)?;
    let statistics = match_statistics(&loaded.record, &StatsSettings::default())
        .with_context(|| format!("{}", path.display()))?;
    if let Some(out) = html_out {
        let page = stats_html::page(&loaded.record.info, &statistics, &ReportStyle::default());
        write_atomically(out, page.as_bytes())?;
    }
    if json {
        let output = StatsOutput {
            file: path.display().to_string(),
            format: loaded.format.to_string(),
            warnings: &loaded.warnings,
            statistics: &statistics,
            figures: player_figures(&statistics, RatingScale::default()),
        };
        return print(&(serde_json::to_string_pretty(&output)? + "\n"));
    }
    for warning in &loaded.warnings {
        eprintln!("warning: {}: {warning}", path.display());
    }
    print(&report(&statistics))
}

/// Writes `text` to standard output; a closed pipe (`| head`) is not an error.
fn print(text: &str) -> Result<()> {
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// The GNU Backgammon ID of the position before action `entry` of game `game` (0-based), for tests.
#[cfg(test)]
fn id_before(record: &MatchRecord, game: usize, entry: usize) -> Option<String> {
    let replay = record.replay().ok()?;
    let at = replay.game(game)?.before(entry)?;
    Some(cubeful_engine::gnubg_id::encode(&at.position, &at.state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_before_actions_follow_the_game() {
        let text = " 1 point match\n\n Game 1\n A : 0                              B : 0\n  1)                             41: 13/9 24/23\n  2) 31: 8/5 6/5                 \n";
        let loaded = match_file::read(text.as_bytes()).unwrap();
        let first = id_before(&loaded.record, 0, 0).unwrap();
        let second = id_before(&loaded.record, 0, 1).unwrap();
        assert_ne!(first, second);
        assert!(first.starts_with("4HPwATDgc/ABMA:"), "{first}");
    }
}
