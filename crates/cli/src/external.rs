//! `cubeful-cli external [HOST:]PORT`: plays for GNU Backgammon's external-player interface.
//!
//! GNU Backgammon (`set player 1 external HOST:PORT`) connects and, whenever its external player
//! has to act, sends a FIBS `board:` line followed by a newline and a NUL byte; it reads one line
//! back. The answers are those of GNU Backgammon's own `external` command (`external.c`):
//!
//! * a double on offer (`was doubled` set, or both may-double flags cleared): `take`, `drop` or
//!   `beaver`;
//! * the option `resignation N` after the board (the opponent offers to resign 1, 2 or 3 times
//!   the cube): `accept` or `reject`;
//! * dice rolled: the best move in GNU Backgammon's plain notation, one `from/to` per die as
//!   played, `*` after a hit, 25 for the bar and 0 for off (`25/20 6/0`), each of the first three
//!   followed by a blank; an empty line when no checker can move;
//! * no dice: `double` or `roll`.
//!
//! `evaluation fibsboard board:… [plies N] [cube on|off] [cubeful] [cubeless] [noise F]
//! [deterministic] [prune]` answers the five probabilities and the equity of the player to act
//! (`%f` six times: in match play the match winning chance), `version`, `help` and `set …`
//! answer as GNU Backgammon does, `exit` or `quit` closes the connection. Session options after
//! a board or evaluation: `jacobyrule`, `crawfordrule`, `beavers` (on/off) and `resignation N`.
//! Keywords are case-insensitive.
//!
//! Bad lines get one line starting with `Error:` and the connection stays open. Connections
//! are served one after another; a client that disconnects, or stays silent for longer than
//! `--idle-timeout`, is dropped and the server waits for the next one.
//!
//! Names and scores: GNU Backgammon writes every line from its player 1's side (the positive
//! checkers), but puts player 0's name and score in fields 1 and 4 unless a double is pending.
//! By default the scores are read that way (so match equities are right against GNU
//! Backgammon); `--fibs-scores` reads field 4 as the player's own score, as FIBS writes it.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use cubeful_engine::analysis::hint::{self, response_word, Hint, Query, Question};
use cubeful_engine::cube::cubeless_mwc;
use cubeful_engine::formats::fibs::{FibsBoard, FibsGame};
use cubeful_engine::search::{EvalSettings, FilterPreset, Level, Search};
use cubeful_engine::{Move, Position, Resignation};

use crate::nets::EngineArgs;

/// The default host: the loopback interface only.
const DEFAULT_HOST: &str = "127.0.0.1";

/// Longest line accepted; longer lines are answered with an error and skipped.
const MAX_LINE: usize = 64 * 1024;

/// Deepest evaluation the `evaluation` command runs (deeper requests are cut to this).
const MAX_PLIES: u8 = 4;

#[derive(clap::Args)]
pub struct Args {
    /// Where to listen: HOST:PORT, :PORT or PORT. The host defaults to 127.0.0.1 (this machine
    /// only); give 0.0.0.0:PORT to accept connections from other machines. Port 0 picks a free
    /// port (printed at start).
    #[arg(value_name = "[HOST:]PORT")]
    address: String,
    /// Playing level: beginner … expert, worldclass, supremo, grandmaster.
    #[arg(long, default_value = "worldclass")]
    level: Level,
    /// Money play without the Jacoby rule (GNU Backgammon uses it by default and does not say).
    #[arg(long)]
    no_jacoby: bool,
    /// Money play without beavers (GNU Backgammon allows them by default).
    #[arg(long)]
    no_beavers: bool,
    /// Read field 4 of every board line as the player's own score, as FIBS writes it, instead
    /// of GNU Backgammon's order.
    #[arg(long)]
    fibs_scores: bool,
    /// Exit after serving this many connections [default: serve forever].
    #[arg(long, value_name = "N")]
    connections: Option<u64>,
    /// Drop a connection that sends nothing for this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 3600)]
    idle_timeout: u64,
    /// Log every line received and every answer on standard error.
    #[arg(long)]
    verbose: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The address to listen on.
fn listen_address(text: &str) -> Result<SocketAddr> {
    let text = text.trim();
    let (host, port) = match text.rsplit_once(':') {
        Some((host, port)) => (host.trim_matches(|c| c == '[' || c == ']'), port),
        None => ("", text),
    };
    let host = if host.is_empty() { DEFAULT_HOST } else { host };
    let port: u16 = port
        .parse()
        .with_context(|| format!("bad port {port:?} in {text:?} (write HOST:PORT or PORT)"))?;
    let mut addresses = (host, port)
        .to_socket_addrs()
        .with_context(|| format!("cannot resolve host {host:?}"))?
        .collect::<Vec<_>>();
    addresses.sort_by_key(|a| !a.is_ipv4());
    addresses
        .into_iter()
        .next()
        .ok_or_else(|| anyhow!("host {host:?} has no address"))
}

pub fn run(args: &Args) -> Result<()> {
    let address = listen_address(&args.address)?;
    let listener =
        TcpListener::bind(address).with_context(|| format!("cannot listen on {address}"))?;
    let local = listener.local_addr()?;
    let mut search = args.engine.search()?;
    let mut player = Player::new(args);
    println!("Waiting for a connection from {local}...");
    flush_stdout();
    let mut served = 0u64;
    while args.connections != Some(served) {
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(e) => {
                eprintln!("cubeful-cli external: accepting a connection failed: {e}");
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        served += 1;
        println!("Accepted connection from {peer}.");
        flush_stdout();
        match serve(stream, &mut player, &mut search) {
            Ok(()) => println!("Connection from {peer} closed."),
            Err(e) => println!("Connection from {peer} dropped: {e:#}"),
        }
        flush_stdout();
    }
    Ok(())
}

fn flush_stdout() {
    let _ = std::io::stdout().flush();
}

/// One line read from the client.
enum Line {
    Text(Vec<u8>),
    TooLong,
    End,
}

/// Reads up to the next newline, at most [`MAX_LINE`] bytes of it.
fn read_line(reader: &mut impl BufRead) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(if too_long {
                Line::TooLong
            } else if line.is_empty() {
                Line::End
            } else {
                Line::Text(line)
            });
        }
        let (chunk, found) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], Some(i + 1)),
            None => (buffer, None),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = found.unwrap_or(buffer.len());
        reader.consume(used);
        if found.is_some() {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Text(line)
            });
        }
    }
}

fn serve(stream: TcpStream, player: &mut Player, search: &mut Search) -> Result<()> {
    let timeout = Duration::from_secs(player.idle_timeout.max(1));
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    let _ = stream.set_nodelay(true);
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    loop {
        let reply = match read_line(&mut reader)? {
            Line::End => return Ok(()),
            Line::TooLong => Reply::Text(format!(
                "Error: line too long (more than {MAX_LINE} bytes)\n"
            )),
            Line::Text(bytes) => {
                let had_nul = bytes.contains(&0);
                let text = String::from_utf8_lossy(&bytes);
                let text: String = text.chars().filter(|&c| c != '\0').collect();
                if had_nul && text.trim().is_empty() {
                    // The NUL GNU Backgammon sends after its last line, with nothing after it.
                    continue;
                }
                if player.verbose {
                    eprintln!("<- {}", text.trim_end());
                }
                player.answer(text.trim(), search)
            }
        };
        match reply {
            Reply::Close => return Ok(()),
            Reply::Text(text) => {
                if player.verbose {
                    eprintln!("-> {}", text.trim_end());
                }
                writer.write_all(text.as_bytes())?;
                writer.flush()?;
            }
        }
    }
}

/// What to send back.
#[derive(Debug, PartialEq)]
enum Reply {
    Text(String),
    Close,
}

fn error(message: impl std::fmt::Display) -> Reply {
    Reply::Text(format!("Error: {message}\n"))
}

/// Session options after a board (`jacobyrule`, `crawfordrule`, `beavers`, `resignation`) and the
/// evaluation options of `evaluation fibsboard`.
#[derive(Clone, Debug, PartialEq)]
struct Options {
    jacoby: bool,
    crawford: bool,
    beavers: bool,
    resignation: Option<Resignation>,
    plies: u8,
    cubeful: bool,
    noise: f32,
    deterministic: bool,
}

fn boolean(word: Option<&&str>) -> Option<bool> {
    match word?.to_ascii_lowercase().as_str() {
        "yes" | "on" | "true" | "1" => Some(true),
        "no" | "off" | "false" | "0" => Some(false),
        _ => None,
    }
}

/// The engine side of the protocol: settings plus the answers.
struct Player {
    settings: EvalSettings,
    jacoby: bool,
    beavers: bool,
    fibs_scores: bool,
    idle_timeout: u64,
    verbose: bool,
    debug: bool,
}

impl Player {
    fn new(args: &Args) -> Player {
        Player {
            settings: args.level.settings(),
            jacoby: !args.no_jacoby,
            beavers: !args.no_beavers,
            fibs_scores: args.fibs_scores,
            idle_timeout: args.idle_timeout,
            verbose: args.verbose,
            debug: false,
        }
    }

    fn default_options(&self) -> Options {
        Options {
            jacoby: self.jacoby,
            crawford: true,
            beavers: self.beavers,
            resignation: None,
            plies: 0,
            cubeful: false,
            noise: 0.0,
            deterministic: true,
        }
    }

    /// The answer to one line (NUL bytes and surrounding blanks already removed).
    fn answer(&mut self, line: &str, search: &mut Search) -> Reply {
        if line.is_empty() {
            return error("no command given");
        }
        let first = line.split_whitespace().next().unwrap_or_default();
        let lower = first.to_ascii_lowercase();
        if lower.starts_with("board:") {
            return match self.board_command(line, search) {
                Ok(text) => Reply::Text(text),
                Err(e) => error(format!("{e:#}")),
            };
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match lower.as_str() {
            "evaluation" => {
                let rest = line[first.len()..].trim_start();
                let Some(board) = rest
                    .get(..9)
                    .filter(|w| w.eq_ignore_ascii_case("fibsboard"))
                    .map(|_| rest[9..].trim_start())
                else {
                    return error("usage: evaluation fibsboard board:... [options]");
                };
                match self.evaluation(board, search) {
                    Ok(text) => Reply::Text(text),
                    Err(e) => error(format!("{e:#}")),
                }
            }
            "version" if words.len() == 1 => Reply::Text(format!(
                "Interface: 1.0\nRFBF: 1.0\nEngine: Cubeful\nSoftware: cubeful-cli {}\n",
                env!("CARGO_PKG_VERSION")
            )),
            "help" if words.len() == 1 => Reply::Text(
                "Commands: board:... [jacobyrule|crawfordrule|beavers on|off] [resignation N]; \
                 evaluation fibsboard board:... [plies N] [cube on|off] [cubeful|cubeless] \
                 [noise F] [deterministic]; version; set debug on|off; help; exit\n"
                    .to_string(),
            ),
            "exit" | "quit" if words.len() == 1 => Reply::Close,
            "set" => self.set(&words[1..]),
            _ => error(format!(
                "unknown command '{}' (expected a board: line, evaluation, version, help, set or exit)",
                first.chars().take(40).collect::<String>()
            )),
        }
    }

    fn set(&mut self, words: &[&str]) -> Reply {
        match words {
            [what, value] if what.eq_ignore_ascii_case("debug") => match boolean(Some(value)) {
                Some(on) => {
                    self.debug = on;
                    Reply::Text(format!("Debug output {}\n", if on { "ON" } else { "OFF" }))
                }
                None => error(format!("set debug takes on or off, not '{value}'")),
            },
            [what, value] if what.eq_ignore_ascii_case("interface") => {
                match value.to_ascii_lowercase().as_str() {
                    "new" => Reply::Text("New interface ON\n".to_string()),
                    "old" => Reply::Text("New interface OFF\n".to_string()),
                    _ => error(format!("set interface takes new or old, not '{value}'")),
                }
            }
            [what, ..] => error(format!("set option '{what}' not supported")),
            [] => error("set what? (set debug on|off)"),
        }
    }

    /// Splits `board:…` from the options after it and reads both.
    fn parse_line(&self, line: &str, evaluation: bool) -> Result<(FibsBoard, Options)> {
        let body = line
            .get(..6)
            .filter(|p| p.eq_ignore_ascii_case("board:"))
            .map(|_| &line[6..])
            .ok_or_else(|| anyhow!("badly formed board: it must start with board:"))?;
        let pieces: Vec<&str> = body.splitn(52, ':').collect();
        let (board_text, option_text) = match pieces.split_last() {
            Some((last, fields)) if pieces.len() == 52 => {
                let last = last.trim_start();
                let end = last.find(char::is_whitespace).unwrap_or(last.len());
                (
                    format!("board:{}:{}", fields.join(":"), &last[..end]),
                    &last[end..],
                )
            }
            _ => (format!("board:{body}"), ""),
        };
        let board = FibsBoard::parse(&board_text).context("badly formed board")?;
        let options = self.parse_options(option_text, evaluation)?;
        Ok((board, options))
    }

    fn parse_options(&self, text: &str, evaluation: bool) -> Result<Options> {
        let mut options = self.default_options();
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut i = 0;
        while i < words.len() {
            let word = words[i].to_ascii_lowercase();
            let next = words.get(i + 1);
            let flag = |target: &mut bool, default: bool, optional: bool| -> Result<usize> {
                match boolean(next) {
                    Some(value) => {
                        *target = value;
                        Ok(2)
                    }
                    None if optional => {
                        *target = default;
                        Ok(1)
                    }
                    None => bail!("option '{word}' takes on or off"),
                }
            };
            let used = match word.as_str() {
                "jacobyrule" => flag(&mut options.jacoby, true, false)?,
                "crawfordrule" => flag(&mut options.crawford, true, false)?,
                "beavers" => flag(&mut options.beavers, true, false)?,
                "resignation" => {
                    let n: i64 = next
                        .and_then(|w| w.parse().ok())
                        .ok_or_else(|| anyhow!("option 'resignation' takes 0 to 3"))?;
                    options.resignation = match n {
                        0 => None,
                        1 => Some(Resignation::Single),
                        2 => Some(Resignation::Gammon),
                        3 => Some(Resignation::Backgammon),
                        _ => bail!("option 'resignation' takes 0 to 3, not {n}"),
                    };
                    2
                }
                "plies" if evaluation => {
                    let n: i64 = next
                        .and_then(|w| w.parse().ok())
                        .ok_or_else(|| anyhow!("option 'plies' takes a number"))?;
                    if n < 0 {
                        bail!("option 'plies' takes 0 or more, not {n}");
                    }
                    options.plies = n.min(i64::from(MAX_PLIES)) as u8;
                    2
                }
                "noise" if evaluation => {
                    let value = next.ok_or_else(|| anyhow!("option 'noise' takes a number"))?;
                    // An integer is in ten-thousandths, as in GNU Backgammon.
                    let noise = if let Ok(n) = value.parse::<i64>() {
                        n as f32 / 10_000.0
                    } else {
                        value
                            .parse::<f32>()
                            .ok()
                            .filter(|f| f.is_finite())
                            .ok_or_else(|| {
                                anyhow!("option 'noise' takes a number, not '{value}'")
                            })?
                    };
                    if !(0.0..=10.0).contains(&noise) {
                        bail!("option 'noise' must be between 0 and 10");
                    }
                    options.noise = noise;
                    2
                }
                "deterministic" if evaluation => flag(&mut options.deterministic, true, true)?,
                "prune" if evaluation => {
                    let mut ignored = false;
                    flag(&mut ignored, true, true)?
                }
                "cube" if evaluation => flag(&mut options.cubeful, true, false)?,
                "cubeful" if evaluation => {
                    options.cubeful = true;
                    1
                }
                "cubeless" if evaluation => {
                    options.cubeful = false;
                    1
                }
                _ => bail!(
                    "unexpected '{}' after the board",
                    words[i].chars().take(40).collect::<String>()
                ),
            };
            i += used;
        }
        Ok(options)
    }

    /// The board interpreted, with GNU Backgammon's name and score order and the options.
    fn game(&self, board: &FibsBoard, options: &Options) -> Result<FibsGame> {
        let mut game = board.to_game().context("badly formed board")?;
        if !self.fibs_scores && !game.state.doubled {
            game.state.score.swap(0, 1);
            game.names.swap(0, 1);
        }
        if game.state.is_money() {
            game.state.jacoby = options.jacoby;
        } else if !options.crawford {
            game.state.crawford = false;
        }
        Ok(game)
    }

    fn board_command(&mut self, line: &str, search: &mut Search) -> Result<String> {
        let (board, options) = self.parse_line(line, false)?;
        let game = self.game(&board, &options)?;
        let mut state = game.state;
        let position = game.position;
        let beavers = options.beavers && state.is_money();
        let question = if state.doubled {
            Question::AnswerDouble {
                may_beaver: beavers,
            }
        } else if let Some(offer) = options.resignation {
            state.resigned = Some(offer);
            Question::AnswerResignation(offer)
        } else if let Some(dice) = state.dice {
            Question::Move(dice)
        } else {
            Question::Cube
        };
        let query = Query {
            position,
            state,
            beavers,
            question,
        };
        if question == Question::Cube && !query.cube_context().can_double() {
            // The cube is out of reach: nothing to evaluate.
            return Ok("roll\n".to_string());
        }
        let answer = match hint::hint(search, &query, &self.settings) {
            Hint::Take(h) => response_word(h.response).to_string(),
            Hint::Resignation(h) => if h.accept { "accept" } else { "reject" }.to_string(),
            Hint::Moves(h) => format_move_plain(&position, &h.moves[0].mv.mv),
            Hint::Cube(h) => if h.double { "double" } else { "roll" }.to_string(),
        };
        Ok(answer + "\n")
    }

    fn evaluation(&mut self, line: &str, search: &mut Search) -> Result<String> {
        let (board, options) = self.parse_line(line, true)?;
        let game = self.game(&board, &options)?;
        // The position and cube seen by the player who has to act.
        let mut state = game.state;
        let position = game.position_to_act();
        state.on_roll = state.turn;
        state.doubled = false;
        state.dice = None;
        let settings = EvalSettings {
            plies: options.plies,
            cubeful: options.cubeful,
            noise: options.noise,
            deterministic: options.deterministic,
            filter: FilterPreset::Normal,
            reduced: false,
            prune: false,
        };
        let beavers = options.beavers && state.is_money();
        let ctx = hint::cube_context(&state, beavers);
        let e = hint::evaluate(search, &position, &state, beavers, &settings);
        let value = if state.is_money() {
            if options.cubeful {
                e.cubeful
            } else {
                e.cubeless
            }
        } else if options.cubeful {
            e.mwc.unwrap_or(0.0)
        } else {
            cubeless_mwc(&e.probabilities, &ctx).unwrap_or(0.0)
        };
        let p = e.probabilities;
        Ok(format!(
            "{:.6} {:.6} {:.6} {:.6} {:.6} {:.6}\n",
            p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon, value
        ))
    }
}

/// A move as GNU Backgammon's `FormatMovePlain` writes it for FIBS: the steps as played,
/// `from/to` with 25 for the bar and 0 for off, `*` where a step hits a checker that stood there
/// before the move (and no earlier step had landed there), a blank after each of the first three
/// steps. The empty move is the empty string.
pub fn format_move_plain(before: &Position, mv: &Move) -> String {
    let board = before.board();
    let steps = mv.steps();
    let mut out = String::new();
    for (i, step) in steps.iter().enumerate() {
        out.push_str(&format!("{}/{}", step.from, step.to));
        let to = usize::from(step.to);
        let hit = to != 0
            && to < board.len()
            && board[to] < 0
            && !steps[..i].iter().any(|s| s.to == step.to);
        if hit {
            out.push('*');
        }
        if i < 3 {
            out.push(' ');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::{legal_moves, Dice, Step};

    #[test]
    fn plain_notation_as_gnubg_writes_it() {
        let start = Position::starting();
        let d = |s: &str| s.parse::<Dice>().unwrap();
        let find = |dice: Dice, text: &str| {
            legal_moves(&start, dice)
                .into_iter()
                .find(|m| format_move_plain(&start, &m.mv) == text)
                .is_some()
        };
        assert!(find(d("31"), "8/5 6/5 "));
        assert!(find(d("66"), "24/18 24/18 13/7 13/7"));
        let hit = Move::from_steps(&[Step { from: 6, to: 2 }, Step { from: 2, to: 1 }]);
        assert_eq!(format_move_plain(&start, &hit), "6/2 2/1* ");
        assert_eq!(format_move_plain(&start, &Move::NONE), "");
        let off = Move::from_steps(&[Step { from: 25, to: 20 }]);
        assert_eq!(format_move_plain(&start, &off), "25/20 ");
    }

    #[test]
    fn addresses() {
        assert_eq!(
            listen_address("4000").unwrap(),
            "127.0.0.1:4000".parse().unwrap()
        );
        assert_eq!(
            listen_address(":4001").unwrap(),
            "127.0.0.1:4001".parse().unwrap()
        );
        assert_eq!(
            listen_address("0.0.0.0:4002").unwrap(),
            "0.0.0.0:4002".parse().unwrap()
        );
        assert!(listen_address("localhost:x").is_err());
        assert!(listen_address("").is_err());
    }

    #[test]
    fn long_lines_are_cut() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nversion\n");
        let mut reader = std::io::Cursor::new(input);
        assert!(matches!(read_line(&mut reader).unwrap(), Line::TooLong));
        assert!(matches!(read_line(&mut reader).unwrap(), Line::Text(t) if t == b"version"));
        assert!(matches!(read_line(&mut reader).unwrap(), Line::End));
    }
}
