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
//! Every line gets an answer: bad lines (an empty one or one of NUL bytes included) get one line
//! starting with `Error:` and the connection stays open. Each connection is served on its own
//! thread with its own searcher (the nets and bearoff databases are shared), up to
//! `--max-connections` at a time; a client beyond them gets one `Error:` line and is
//! disconnected. A client that disconnects, or sends no complete line for `--idle-timeout`
//! seconds (silent, or trickling bytes without a newline), is dropped.
//!
//! Names and scores: GNU Backgammon writes every line from its player 1's side (the positive
//! checkers), but puts player 0's name and score in fields 1 and 4 unless a double is pending.
//! By default the scores are read that way (so match equities are right against GNU
//! Backgammon); `--fibs-scores` reads field 4 as the player's own score, as FIBS writes it.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use cubeful_engine::analysis::hint::{self, response_word, Hint, Query, Question};
use cubeful_engine::cube::cubeless_mwc;
use cubeful_engine::formats::fibs::{FibsBoard, FibsGame};
use cubeful_engine::formats::shorten;
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
    /// Exit after serving this many connections (1 to 1000000000) [default: serve forever].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    connections: Option<u64>,
    /// Drop a connection that sends no complete line for this many seconds (1 to 604800, a
    /// week).
    #[arg(long, value_name = "SECONDS", default_value_t = 3600,
          value_parser = clap::value_parser!(u64).range(1..=604_800))]
    idle_timeout: u64,
    /// Serve at most this many connections at a time; a client beyond them gets a one-line
    /// error and is disconnected.
    #[arg(long, value_name = "N", default_value_t = 8,
          value_parser = clap::value_parser!(u64).range(1..=1024))]
    max_connections: u64,
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
    // The nets and the bearoff databases are loaded once and shared; each connection gets its
    // own searcher and session state.
    let nets = args.engine.nets.load()?;
    let bearoff = args.engine.bearoff()?;
    let player = Player::new(args);
    let limit = usize::try_from(args.max_connections).unwrap_or(usize::MAX);
    let active = Arc::new(AtomicUsize::new(0));
    let mut threads: Vec<std::thread::JoinHandle<()>> = Vec::new();
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
        threads.retain(|t| !t.is_finished());
        if active.load(Ordering::SeqCst) >= limit {
            refuse(stream, limit);
            println!("Refused connection from {peer}: {limit} connections already open.");
            flush_stdout();
            continue;
        }
        served += 1;
        active.fetch_add(1, Ordering::SeqCst);
        println!("Accepted connection from {peer}.");
        flush_stdout();
        let mut search = Search::new(Arc::clone(&nets));
        search.set_bearoff(bearoff.clone());
        let mut player = player.clone();
        let counter = Arc::clone(&active);
        let spawned = std::thread::Builder::new()
            .name(format!("external {peer}"))
            .spawn(move || {
                match serve(stream, &mut player, &mut search) {
                    Ok(()) => println!("Connection from {peer} closed."),
                    Err(e) => println!("Connection from {peer} dropped: {e:#}"),
                }
                flush_stdout();
                counter.fetch_sub(1, Ordering::SeqCst);
            });
        match spawned {
            Ok(thread) => threads.push(thread),
            Err(e) => {
                // The stream went with the closure and is closed.
                active.fetch_sub(1, Ordering::SeqCst);
                println!("Connection from {peer} dropped: cannot start a thread: {e}");
                flush_stdout();
            }
        }
    }
    for thread in threads {
        let _ = thread.join();
    }
    Ok(())
}

/// Tells a client beyond `--max-connections` so in one line, then closes its connection.
fn refuse(mut stream: TcpStream, limit: usize) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(2)));
    let _ = stream.write_all(
        format!(
            "Error: too many connections (this server plays at most {limit} at a time); \
             try again later\n"
        )
        .as_bytes(),
    );
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Write);
    // Closing with unread input would reset the connection, and the client might lose the
    // line: read what it already sent, for a moment at most.
    let until = Instant::now() + Duration::from_millis(200);
    let mut sink = [0u8; 4096];
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

fn flush_stdout() {
    let _ = std::io::stdout().flush();
}

/// One line read from the client.
#[derive(Debug, PartialEq)]
enum Line {
    /// A line ended by a newline (not included).
    Text(Vec<u8>),
    /// The bytes the client sent before closing the connection without a newline.
    Unterminated(Vec<u8>),
    TooLong,
    End,
}

/// A stream whose reads can be given a time limit.
trait TimedRead: Read {
    /// Makes the next reads give up (with `WouldBlock` or `TimedOut`) after `limit`.
    fn set_read_limit(&self, limit: Duration) -> std::io::Result<()>;
}

impl TimedRead for TcpStream {
    fn set_read_limit(&self, limit: Duration) -> std::io::Result<()> {
        self.set_read_timeout(Some(limit.max(Duration::from_millis(1))))
    }
}

impl<T: AsRef<[u8]>> TimedRead for std::io::Cursor<T> {
    fn set_read_limit(&self, _limit: Duration) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads up to the next newline, at most [`MAX_LINE`] bytes of it. The whole line, not only
/// each read, must arrive before `deadline`: a client that trickles bytes without ever ending
/// the line is as idle as a silent one.
fn read_line<R: TimedRead>(
    reader: &mut BufReader<R>,
    deadline: Option<Instant>,
) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        if reader.buffer().is_empty() {
            if let Some(deadline) = deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(std::io::Error::new(
                        ErrorKind::TimedOut,
                        "no complete line within the idle timeout",
                    ));
                }
                reader.get_ref().set_read_limit(left)?;
            }
        }
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) =>
            {
                // Checked against the deadline above.
                continue;
            }
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(if too_long {
                Line::TooLong
            } else if line.is_empty() {
                Line::End
            } else {
                Line::Unterminated(line)
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
    stream.set_write_timeout(Some(timeout))?;
    let _ = stream.set_nodelay(true);
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    loop {
        let deadline = Instant::now().checked_add(timeout);
        let reply = match read_line(&mut reader, deadline)? {
            Line::End => return Ok(()),
            Line::TooLong => Reply::Text(format!(
                "Error: line too long (more than {MAX_LINE} bytes)\n"
            )),
            Line::Unterminated(bytes)
                if bytes.iter().all(|b| *b == 0 || b.is_ascii_whitespace()) =>
            {
                // The NUL GNU Backgammon sends after its last line, with nothing after it.
                return Ok(());
            }
            Line::Text(bytes) | Line::Unterminated(bytes) => {
                // GNU Backgammon ends each line with a newline and a NUL: the NUL arrives at the
                // start of the next line. A line of nothing but NULs gets an error, as any
                // other empty line.
                let text = String::from_utf8_lossy(&bytes);
                let text: String = text.chars().filter(|&c| c != '\0').collect();
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

/// The engine side of the protocol: settings plus the answers. Each connection has its own.
#[derive(Clone)]
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
                Err(e) => error(crate::one_line(&e)),
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
                    Err(e) => error(crate::one_line(&e)),
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
                shorten(first)
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
                None => error(format!(
                    "set debug takes on or off, not '{}'",
                    shorten(value)
                )),
            },
            [what, value] if what.eq_ignore_ascii_case("interface") => {
                match value.to_ascii_lowercase().as_str() {
                    "new" => Reply::Text("New interface ON\n".to_string()),
                    "old" => Reply::Text("New interface OFF\n".to_string()),
                    _ => error(format!(
                        "set interface takes new or old, not '{}'",
                        shorten(value)
                    )),
                }
            }
            [what, ..] => error(format!("set option '{}' not supported", shorten(what))),
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
                                anyhow!("option 'noise' takes a number, not '{}'", shorten(value))
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
                _ => bail!("unexpected '{}' after the board", shorten(words[i])),
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
        let mut reader = BufReader::new(std::io::Cursor::new(input));
        assert_eq!(read_line(&mut reader, None).unwrap(), Line::TooLong);
        assert_eq!(
            read_line(&mut reader, None).unwrap(),
            Line::Text(b"version".to_vec())
        );
        assert_eq!(read_line(&mut reader, None).unwrap(), Line::End);
    }
}

// The line generator shared with tests/fuzz.rs (also loaded by the other protocol's module).
#[cfg(test)]
#[path = "../tests/fuzz/lines.rs"]
#[allow(clippy::duplicate_mod)]
mod fuzz_lines;

/// Mutated external-player lines straight into [`Player::answer`] (`tests/fuzz.rs` sends a few
/// thousand through the binary), at the beginner level (0-ply) with `evaluation` at 0 plies.
/// `cargo test --release -p cubeful-cli --bin cubeful-cli -- --ignored million`.
#[cfg(test)]
mod fuzz_tests {
    use super::fuzz_lines::{external_case, external_seeds, seed, Rng, Tally};
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    /// Runs `cases` lines; returns the error messages that are not one line under 1,000 bytes.
    fn fuzz(cases: usize, seed: u64) -> usize {
        let started = std::time::Instant::now();
        let cli = Cli::parse_from(["external", "0", "--level", "beginner", "--no-bearoff"]);
        let mut player = Player::new(&cli.args);
        let mut search = Search::new(std::sync::Arc::new(cubeful_engine::eval::Nets::embedded()));
        let seeds = external_seeds();
        let mut rng = Rng(seed);
        let mut tally = Tally::default();
        for _ in 0..cases {
            let line = external_case(&mut rng, &seeds);
            match player.answer(&line, &mut search) {
                Reply::Text(text) if text.starts_with("Error:") => {
                    tally.refuse(text.trim_end_matches('\n'), &line)
                }
                Reply::Text(_) => tally.answered += 1,
                Reply::Close => panic!("{line:?} closed the connection"),
            }
        }
        tally.report("external player in process", cases, "", started)
    }

    #[test]
    fn mutated_lines() {
        let _ = fuzz(5_000, seed(0xF022_0202));
    }

    #[test]
    #[ignore = "a million cases: cargo test --release -p cubeful-cli --bin cubeful-cli -- --ignored"]
    fn mutated_lines_million() {
        let _ = fuzz(1_000_000, seed(0xF022_1202));
    }

    /// Every error message is one line under 1,000 bytes.
    #[test]
    fn error_messages_are_one_short_line() {
        assert_eq!(fuzz(20_000, seed(0xF022_2202)), 0);
    }
}
