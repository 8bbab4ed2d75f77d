//! `cubeful-cli ubgi`: the engine speaks UBGI (Universal Backgammon Interface, draft v0.1) on
//! standard input and output, at compliance level 1.
//!
//! Host → engine, one command per line (keywords are case-sensitive):
//!
//! * `ubgi` → `id name …`, `id author …`, the `option …` lines, `ubgiok`; `isready` →
//!   `readyok` (also while a search runs); `quit`.
//! * `setoption name <Name> value <Value>` for `Threads` (accepted; the search uses one),
//!   `Seed` (noise of the weaker levels), `Deterministic`, `EvalMode` (`cubeful|cubeless`) and
//!   `Level` (`beginner` … `grandmaster`; option names are case-insensitive).
//! * Context: `newgame` (cube centred at 1, no position, no dice), `newsession type
//!   <money|match> [length <N>] [jacoby <on|off>] [crawford <on|off>]`, `setscore <p0> <p1>
//!   [crawford|postcrawford]`, `setcube value <N> owner <center|p0|p1>`, `setturn <p0|p1>`.
//! * `position gnubgid <POSITION-ID>[:<MATCH-ID>]` (the position is seen from the player on
//!   roll, `setturn`; a Match ID also sets the score, cube, turn, dice and any double on offer),
//!   `position xgid <XGID>`, `dice <d1> <d2>` (or `dice 31`).
//! * `go role <chequer|cube|turn> [movetime <ms>] [depth <n>] [nodes <n>] [trials <n>]`:
//!   `depth` is the lookahead in GNU Backgammon plies (0 to 4) instead of the level's; the
//!   others are accepted and not used. `go` alone is `go role chequer` with dice, `cube`
//!   without. `stop` is accepted (a search cannot be cut short; its answer follows).
//!
//! Engine → host: `info role … depth … eq … [mwc …] pwin … pgammon … pbg … plgammon … plbg …
//! time_ms … [pv …]`, then the answer: `bestmoveid <POSITION-ID>` (the position after the move,
//! seen from the mover) followed by `bestmove <from/to …>` (steps as played, `bar` and `off`
//! spelled out, `pass` when no checker can move); `bestcube double|nodouble` (with a double on
//! offer in the context: `bestcube take|drop|beaver`); `bestturn cube=double` or `bestturn
//! cube=nodouble moveid=<POSITION-ID> move=<move>`. Errors: `error <code> <message>` with the codes
//! `unknown_command`, `bad_argument`, `missing_context`, `unsupported_feature` and
//! `search_in_progress`; the engine always carries on.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use anyhow::Result;
use cubeful_engine::analysis::hint::{self, response_word, Hint, Query, Question};
use cubeful_engine::formats::shorten;
use cubeful_engine::search::{EvalSettings, Level, Search};
use cubeful_engine::{
    gnubg_id, position_id, xgid, CubeOwner, Dice, MatchState, Move, Player, Position,
};

use crate::nets::EngineArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
}

/// The error codes of UBGI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Code {
    UnknownCommand,
    BadArgument,
    MissingContext,
    UnsupportedFeature,
    SearchInProgress,
}

impl Code {
    fn name(self) -> &'static str {
        match self {
            Code::UnknownCommand => "unknown_command",
            Code::BadArgument => "bad_argument",
            Code::MissingContext => "missing_context",
            Code::UnsupportedFeature => "unsupported_feature",
            Code::SearchInProgress => "search_in_progress",
        }
    }
}

/// An `error` line to send.
#[derive(Debug)]
struct UbgiError {
    code: Code,
    message: String,
}

type Answer = std::result::Result<(), UbgiError>;

fn fail(code: Code, message: impl Into<String>) -> Answer {
    Err(UbgiError {
        code,
        message: message.into(),
    })
}

fn bad(message: impl Into<String>) -> UbgiError {
    UbgiError {
        code: Code::BadArgument,
        message: message.into(),
    }
}

/// Writes one line to standard output and flushes it. Lines from the search thread and the
/// command loop never interleave.
fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // A host that went away cannot be told anything; the loop ends at the end of input.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Everything a decision depends on.
#[derive(Clone, Debug)]
struct Context {
    match_length: u16,
    jacoby: bool,
    crawford_rule: bool,
    score: [u16; 2],
    /// Set explicitly (`setscore … crawford|postcrawford`, a Match ID); otherwise derived.
    crawford_game: Option<bool>,
    cube_log2: u8,
    owner: CubeOwner,
    turn: Player,
    position: Option<Position>,
    dice: Option<Dice>,
    /// A double is on offer (from a Match ID or XGID): the player on roll doubled, the other
    /// answers.
    doubled: bool,
}

impl Context {
    fn new() -> Context {
        Context {
            match_length: 0,
            jacoby: false,
            crawford_rule: true,
            score: [0, 0],
            crawford_game: None,
            cube_log2: 0,
            owner: CubeOwner::Centered,
            turn: Player::Zero,
            position: None,
            dice: None,
            doubled: false,
        }
    }

    fn crawford(&self) -> bool {
        if self.match_length == 0 || !self.crawford_rule {
            return false;
        }
        self.crawford_game.unwrap_or_else(|| {
            let at_match_point =
                |p: Player| u32::from(self.score[p.index()]) + 1 == u32::from(self.match_length);
            at_match_point(Player::Zero) != at_match_point(Player::One)
        })
    }

    /// The match state, for the player on roll (`turn`).
    fn state(&self) -> MatchState {
        MatchState {
            cube_log2: self.cube_log2,
            cube_owner: self.owner,
            on_roll: self.turn,
            crawford: self.crawford(),
            turn: if self.doubled {
                self.turn.other()
            } else {
                self.turn
            },
            doubled: self.doubled,
            dice: self.dice,
            match_length: self.match_length,
            score: self.score,
            jacoby: self.jacoby && self.match_length == 0,
            ..MatchState::money()
        }
    }

    /// Adopts a position and match state read from an ID.
    fn adopt(&mut self, position: Position, state: Option<MatchState>) {
        self.position = Some(position);
        if let Some(s) = state {
            self.match_length = s.match_length;
            self.score = s.score;
            self.cube_log2 = s.cube_log2;
            self.owner = s.cube_owner;
            self.turn = s.on_roll;
            self.dice = s.dice;
            self.doubled = s.doubled;
            self.crawford_game = (s.match_length > 0).then_some(s.crawford);
            if s.match_length == 0 {
                self.jacoby = s.jacoby;
            }
        }
    }
}

/// The engine's options.
#[derive(Clone, Copy, Debug)]
struct Options {
    threads: u32,
    seed: u64,
    deterministic: bool,
    cubeful: bool,
    level: Level,
}

/// What `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Chequer,
    Cube,
    Turn,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Chequer => "chequer",
            Role::Cube => "cube",
            Role::Turn => "turn",
        }
    }
}

/// A decision to compute, with everything it needs.
struct Job {
    role: Role,
    context: Context,
    position: Position,
    settings: EvalSettings,
}

struct Engine {
    engine_args: EngineArgs,
    options: Options,
    context: Context,
    search: Option<Search>,
    running: Option<Running>,
}

/// A search on its thread. `answered` is set just before the final answer is sent, so that a
/// host's next command, sent after that answer, never meets a search still in progress.
struct Running {
    handle: JoinHandle<Search>,
    answered: Arc<AtomicBool>,
}

pub fn run(args: &Args) -> Result<()> {
    let mut engine = Engine::new(args.engine.clone());
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            // Unreadable input (not UTF-8): say so and go on.
            send("error bad_argument the line is not UTF-8 text");
            continue;
        };
        engine.collect();
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "quit" {
            return Ok(());
        }
        if let Err(e) = engine.command(line) {
            send(&format!("error {} {}", e.code.name(), e.message));
        }
    }
    engine.wait();
    Ok(())
}

fn on_off(word: &str) -> Option<bool> {
    match word {
        "on" | "true" | "yes" => Some(true),
        "off" | "false" | "no" => Some(false),
        _ => None,
    }
}

fn player(word: &str) -> Option<Player> {
    match word {
        "p0" => Some(Player::Zero),
        "p1" => Some(Player::One),
        _ => None,
    }
}

impl Engine {
    /// A session with the default options (one thread, deterministic, cubeful, World Class),
    /// no position yet; the nets are loaded on first use.
    fn new(engine_args: EngineArgs) -> Engine {
        Engine {
            engine_args,
            options: Options {
                threads: 1,
                seed: 0,
                deterministic: true,
                cubeful: true,
                level: Level::WorldClass,
            },
            context: Context::new(),
            search: None,
            running: None,
        }
    }

    /// Takes back the searcher of a search that has answered.
    fn collect(&mut self) {
        let answered = self
            .running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::SeqCst) || r.handle.is_finished());
        if answered {
            self.wait();
        }
    }

    /// Waits for a running search to finish.
    fn wait(&mut self) {
        if let Some(running) = self.running.take() {
            match running.handle.join() {
                Ok(search) => self.search = Some(search),
                Err(_) => send("error bad_argument the search failed"),
            }
        }
    }

    fn searcher(&mut self) -> std::result::Result<Search, UbgiError> {
        if let Some(search) = self.search.take() {
            return Ok(search);
        }
        let mut search = self.engine_args.search().map_err(|e| UbgiError {
            code: Code::UnsupportedFeature,
            message: format!("the engine cannot start: {e:#}"),
        })?;
        search.set_noise_seed(self.options.seed);
        Ok(search)
    }

    fn command(&mut self, line: &str) -> Answer {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (keyword, args) = (words[0], &words[1..]);
        if self.running.is_some() {
            return match keyword {
                "isready" => {
                    send("readyok");
                    Ok(())
                }
                "stop" => {
                    self.wait();
                    Ok(())
                }
                _ => fail(
                    Code::SearchInProgress,
                    format!(
                        "'{}' must wait until the search has answered",
                        shorten(keyword)
                    ),
                ),
            };
        }
        match keyword {
            "ubgi" => {
                self.handshake();
                Ok(())
            }
            "isready" => {
                let search = self.searcher()?;
                self.search = Some(search);
                send("readyok");
                Ok(())
            }
            "stop" => Ok(()),
            "setoption" => self.set_option(args),
            "newgame" => {
                let c = &mut self.context;
                c.cube_log2 = 0;
                c.owner = CubeOwner::Centered;
                c.position = None;
                c.dice = None;
                c.doubled = false;
                Ok(())
            }
            "newsession" => self.new_session(args),
            "setscore" => self.set_score(args),
            "setcube" => self.set_cube(args),
            "setturn" => match args {
                [p] => {
                    let p = player(p).ok_or_else(|| {
                        bad(format!("setturn takes p0 or p1, not '{}'", shorten(p)))
                    })?;
                    self.context.turn = p;
                    self.context.doubled = false;
                    Ok(())
                }
                _ => fail(Code::BadArgument, "usage: setturn <p0|p1>"),
            },
            "position" => self.position(args),
            "dice" => {
                let text = args.join("");
                let dice = text
                    .parse::<Dice>()
                    .map_err(|e| bad(format!("usage: dice <d1> <d2>: {e}")))?;
                self.context.dice = Some(dice);
                self.context.doubled = false;
                Ok(())
            }
            "go" => self.go(args),
            _ => fail(
                Code::UnknownCommand,
                format!("'{}' is not a UBGI command", shorten(keyword)),
            ),
        }
    }

    fn handshake(&self) {
        send(&format!("id name Cubeful {}", env!("CARGO_PKG_VERSION")));
        send("id author The Cubeful developers");
        send("option name Threads type spin default 1 min 1 max 64");
        send("option name Seed type spin default 0 min 0 max 4294967295");
        send("option name Deterministic type check default true");
        send("option name EvalMode type combo default cubeful var cubeful var cubeless");
        let levels: Vec<String> = Level::ALL
            .iter()
            .map(|l| format!("var {}", l.name()))
            .collect();
        send(&format!(
            "option name Level type combo default worldclass {}",
            levels.join(" ")
        ));
        send("ubgiok");
    }

    fn set_option(&mut self, args: &[&str]) -> Answer {
        let name_at = args.iter().position(|w| *w == "name");
        let value_at = args.iter().position(|w| *w == "value");
        let (Some(n), Some(v)) = (name_at, value_at) else {
            return fail(
                Code::BadArgument,
                "usage: setoption name <Name> value <Value>",
            );
        };
        if n + 1 >= v || v + 1 > args.len() {
            return fail(
                Code::BadArgument,
                "usage: setoption name <Name> value <Value>",
            );
        }
        let name = args[n + 1..v].join(" ");
        let value = args[v + 1..].join(" ");
        if value.is_empty() {
            return fail(Code::BadArgument, format!("option {name} needs a value"));
        }
        match name.to_ascii_lowercase().as_str() {
            "threads" => {
                let t: u32 = value
                    .parse()
                    .ok()
                    .filter(|t| (1..=64).contains(t))
                    .ok_or_else(|| {
                        bad(format!("Threads takes 1 to 64, not '{}'", shorten(&value)))
                    })?;
                self.options.threads = t;
            }
            "seed" => {
                let s: u64 = value
                    .parse()
                    .ok()
                    .filter(|s| *s <= u64::from(u32::MAX))
                    .ok_or_else(|| {
                        bad(format!(
                            "Seed takes 0 to 4294967295, not '{}'",
                            shorten(&value)
                        ))
                    })?;
                self.options.seed = s;
                if let Some(search) = &mut self.search {
                    search.set_noise_seed(s);
                }
            }
            "deterministic" => {
                self.options.deterministic = on_off(&value).ok_or_else(|| {
                    bad(format!(
                        "Deterministic takes true or false, not '{}'",
                        shorten(&value)
                    ))
                })?;
            }
            "evalmode" => {
                self.options.cubeful = match value.as_str() {
                    "cubeful" => true,
                    "cubeless" => false,
                    _ => {
                        return fail(
                            Code::BadArgument,
                            format!(
                                "EvalMode takes cubeful or cubeless, not '{}'",
                                shorten(&value)
                            ),
                        )
                    }
                };
            }
            "level" => {
                self.options.level = value.parse::<Level>().map_err(bad)?;
            }
            _ => {
                let known = "Threads, Seed, Deterministic, EvalMode, Level";
                return fail(
                    Code::UnsupportedFeature,
                    format!("no option '{}' (options: {known})", shorten(&name)),
                );
            }
        }
        Ok(())
    }

    fn new_session(&mut self, args: &[&str]) -> Answer {
        let mut kind = None;
        let mut length = None;
        let mut jacoby = false;
        let mut crawford = true;
        let mut i = 0;
        while i < args.len() {
            let value = args
                .get(i + 1)
                .ok_or_else(|| bad(format!("'{}' needs a value", shorten(args[i]))))?;
            match args[i] {
                "type" => kind = Some(*value),
                "length" => {
                    let n: u16 = value
                        .parse()
                        .ok()
                        .filter(|n| (1..=cubeful_engine::game::MAX_MATCH_LENGTH).contains(n))
                        .ok_or_else(|| {
                            bad(format!("length takes 1 to 64, not '{}'", shorten(value)))
                        })?;
                    length = Some(n);
                }
                "jacoby" => jacoby = on_off(value).ok_or_else(|| bad("jacoby takes on or off"))?,
                "crawford" => {
                    crawford = on_off(value).ok_or_else(|| bad("crawford takes on or off"))?
                }
                other => {
                    return fail(
                        Code::BadArgument,
                        format!("unknown newsession argument '{}'", shorten(other)),
                    )
                }
            }
            i += 2;
        }
        let match_length = match kind {
            Some("money") => 0,
            Some("match") => length.ok_or_else(|| bad("a match needs 'length <N>'"))?,
            Some(v @ ("nackgammon" | "hypergammon" | "acey-deucey")) => {
                return fail(Code::UnsupportedFeature, format!("{v} is not supported"))
            }
            Some(other) => return fail(Code::BadArgument, format!("type is money or match, not '{}'", shorten(other))),
            None => return fail(Code::BadArgument, "usage: newsession type <money|match> [length <N>] [jacoby <on|off>] [crawford <on|off>]"),
        };
        self.context = Context {
            match_length,
            jacoby,
            crawford_rule: crawford,
            ..Context::new()
        };
        Ok(())
    }

    fn set_score(&mut self, args: &[&str]) -> Answer {
        let (scores, flag) = match args {
            [a, b] => ([*a, *b], None),
            [a, b, f] => ([*a, *b], Some(*f)),
            _ => {
                return fail(
                    Code::BadArgument,
                    "usage: setscore <p0> <p1> [crawford|postcrawford]",
                )
            }
        };
        let mut score = [0u16; 2];
        for (s, text) in score.iter_mut().zip(scores) {
            *s = text
                .parse::<u16>()
                .ok()
                .filter(|s| *s <= 0x7FFF)
                .ok_or_else(|| bad(format!("a score is a number, not '{}'", shorten(text))))?;
        }
        let length = self.context.match_length;
        if length > 0 && score.iter().any(|&s| s >= length) {
            return fail(
                Code::BadArgument,
                format!("scores must be below the match length {length}"),
            );
        }
        let crawford = match flag {
            None => None,
            Some("crawford") => Some(true),
            Some("postcrawford") => Some(false),
            Some(other) => {
                return fail(
                    Code::BadArgument,
                    format!("'{}' is not crawford or postcrawford", shorten(other)),
                )
            }
        };
        if crawford == Some(true)
            && (length == 0 || !score.iter().any(|&s| u32::from(s) + 1 == u32::from(length)))
        {
            return fail(
                Code::BadArgument,
                "the Crawford game needs a player at match point",
            );
        }
        self.context.score = score;
        self.context.crawford_game = crawford;
        Ok(())
    }

    fn set_cube(&mut self, args: &[&str]) -> Answer {
        let ["value", value, "owner", owner] = args else {
            return fail(
                Code::BadArgument,
                "usage: setcube value <N> owner <center|p0|p1>",
            );
        };
        let v: u32 = value
            .parse()
            .ok()
            .filter(|v: &u32| v.is_power_of_two() && *v <= 1 << 15)
            .ok_or_else(|| {
                bad(format!(
                    "the cube is a power of two up to 32768, not '{}'",
                    shorten(value)
                ))
            })?;
        let owner =
            match *owner {
                "center" | "centre" => CubeOwner::Centered,
                p => CubeOwner::Owned(player(p).ok_or_else(|| {
                    bad(format!("owner is center, p0 or p1, not '{}'", shorten(p)))
                })?),
            };
        self.context.cube_log2 = v.trailing_zeros() as u8;
        self.context.owner = owner;
        Ok(())
    }

    fn position(&mut self, args: &[&str]) -> Answer {
        let Some((format, rest)) = args.split_first() else {
            return fail(
                Code::BadArgument,
                "usage: position gnubgid <ID> | position xgid <XGID>",
            );
        };
        let text = rest.join(" ");
        if text.is_empty() {
            return fail(
                Code::BadArgument,
                format!("position {} needs an ID", shorten(format)),
            );
        }
        match *format {
            "gnubgid" => {
                let (position, state) = gnubg_id::decode_parts(&text)
                    .map_err(|e| bad(format!("bad GNU Backgammon ID: {e}")))?;
                self.check_state(state.as_ref())?;
                self.context.adopt(position, state);
            }
            "xgid" => {
                let (position, state) =
                    xgid::decode(&text).map_err(|e| bad(format!("bad XGID: {e}")))?;
                self.check_state(Some(&state))?;
                self.context.adopt(position, Some(state));
            }
            other => {
                return fail(
                    Code::UnsupportedFeature,
                    format!("position format '{}' (use gnubgid or xgid)", shorten(other)),
                )
            }
        }
        Ok(())
    }

    fn check_state(&self, state: Option<&MatchState>) -> Answer {
        if let Some(s) = state {
            if s.match_length > cubeful_engine::game::MAX_MATCH_LENGTH {
                return fail(Code::UnsupportedFeature, "matches longer than 64 points");
            }
            if s.match_length > 0 && s.score.iter().any(|&x| x >= s.match_length) {
                return fail(Code::BadArgument, "the match in that ID is over");
            }
        }
        Ok(())
    }

    fn go(&mut self, args: &[&str]) -> Answer {
        let mut role = None;
        let mut depth = None;
        let mut i = 0;
        while i < args.len() {
            let value = args
                .get(i + 1)
                .ok_or_else(|| bad(format!("'{}' needs a value", shorten(args[i]))))?;
            match args[i] {
                "role" => {
                    role = Some(match *value {
                        "chequer" | "checker" => Role::Chequer,
                        "cube" => Role::Cube,
                        "turn" => Role::Turn,
                        other => {
                            return fail(
                                Code::BadArgument,
                                format!("role is chequer, cube or turn, not '{}'", shorten(other)),
                            )
                        }
                    })
                }
                "depth" => {
                    let d: u8 = value.parse().ok().filter(|d| *d <= 4).ok_or_else(|| {
                        bad(format!(
                            "depth takes 0 to 4 plies, not '{}'",
                            shorten(value)
                        ))
                    })?;
                    depth = Some(d);
                }
                "movetime" | "nodes" | "trials" => {
                    value.parse::<u64>().map_err(|_| {
                        bad(format!(
                            "{} takes a number, not '{}'",
                            args[i],
                            shorten(value)
                        ))
                    })?;
                }
                other => {
                    return fail(
                        Code::BadArgument,
                        format!("unknown go argument '{}'", shorten(other)),
                    )
                }
            }
            i += 2;
        }
        let context = self.context.clone();
        let role = role.unwrap_or(if context.dice.is_some() {
            Role::Chequer
        } else {
            Role::Cube
        });
        let Some(position) = context.position else {
            return fail(
                Code::MissingContext,
                "no position: send 'position gnubgid <ID>' first",
            );
        };
        if position.result().is_some() {
            return fail(Code::BadArgument, "the game in this position is over");
        }
        if role == Role::Chequer && context.dice.is_none() {
            return fail(Code::MissingContext, "no dice: send 'dice <d1> <d2>' first");
        }
        if role == Role::Turn && context.doubled {
            return fail(
                Code::BadArgument,
                "a double is on offer: ask 'go role cube' for the answer",
            );
        }
        if role == Role::Turn && context.dice.is_none() {
            return fail(
                Code::MissingContext,
                "no dice for the move of the turn: send 'dice <d1> <d2>' first",
            );
        }
        let mut settings = self.options.level.settings();
        settings.cubeful = self.options.cubeful;
        settings.deterministic = self.options.deterministic;
        if let Some(d) = depth {
            settings.plies = d;
        }
        let job = Job {
            role,
            context,
            position,
            settings,
        };
        let mut search = self.searcher()?;
        let answered = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&answered);
        let handle = std::thread::spawn(move || {
            let mut lines = decide(&job, &mut search);
            let last = lines.pop();
            for line in &lines {
                send(line);
            }
            flag.store(true, Ordering::SeqCst);
            if let Some(line) = last {
                send(&line);
            }
            search
        });
        self.running = Some(Running { handle, answered });
        Ok(())
    }
}

fn token(point: u8) -> String {
    match point {
        25 => "bar".to_string(),
        0 => "off".to_string(),
        p => p.to_string(),
    }
}

/// A move as UBGI writes it: one `from/to` per die as played, `bar` and `off` spelled out.
fn ubgi_move(mv: &Move) -> String {
    if mv.is_empty() {
        return "pass".to_string();
    }
    mv.steps()
        .iter()
        .map(|s| format!("{}/{}", token(s.from), token(s.to)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn info(
    role: Role,
    plies: u8,
    equity: f32,
    mwc: Option<f32>,
    p: [f32; 5],
    started: Instant,
) -> String {
    let mut line = format!("info role {} depth {plies} eq {equity:.4}", role.name());
    if let Some(m) = mwc {
        line.push_str(&format!(" mwc {m:.4}"));
    }
    line.push_str(&format!(
        " pwin {:.4} pgammon {:.4} pbg {:.4} plgammon {:.4} plbg {:.4} time_ms {}",
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        started.elapsed().as_millis()
    ));
    line
}

/// Computes the answer to a `go` (on the search thread): the `info` lines, then the answer.
fn decide(job: &Job, search: &mut Search) -> Vec<String> {
    let mut out = Vec::new();
    let mut send = |line: &str| out.push(line.to_string());
    let started = Instant::now();
    let state = job.context.state();
    // Money sessions allow beavers (UBGI has no option for them).
    let beavers = state.is_money();
    let query = Query::from_state(job.position, state, beavers);
    let s = &job.settings;

    // The cube part.
    let double = if job.role == Role::Chequer {
        false
    } else if state.doubled {
        let Hint::Take(answer) = hint::hint(search, &query, s) else {
            send("error bad_argument no double to answer");
            return out;
        };
        // The doubler's view: his double/take equity and the chances of the player on roll.
        send(&info(
            Role::Cube,
            answer.plies,
            answer.decision.double_take,
            None,
            answer.probabilities.to_array(),
            started,
        ));
        send(&format!("bestcube {}", response_word(answer.response)));
        return out;
    } else {
        let Hint::Cube(cube) = hint::hint(search, &query.with_question(Question::Cube), s) else {
            send("error bad_argument no cube decision");
            return out;
        };
        let d = cube.decision;
        let equity = if cube.double {
            d.double_take.min(d.double_pass)
        } else {
            d.no_double
        };
        send(&info(
            Role::Cube,
            cube.plies,
            equity,
            None,
            cube.probabilities.to_array(),
            started,
        ));
        cube.double
    };
    if job.role == Role::Cube {
        send(&format!(
            "bestcube {}",
            if double { "double" } else { "nodouble" }
        ));
        return out;
    }
    if double {
        send("bestturn cube=double");
        return out;
    }
    // The move.
    let Some(dice) = state.dice else {
        send("error missing_context no dice");
        return out;
    };
    let plays = match hint::hint(search, &query.with_question(Question::Move(dice)), s) {
        Hint::Moves(plays) => plays.moves,
        _ => Vec::new(),
    };
    let Some(best) = plays.first() else {
        send("error bad_argument no legal move");
        return out;
    };
    let mv = ubgi_move(&best.mv.mv);
    let mut line = info(
        Role::Chequer,
        best.plies,
        best.equity,
        best.mwc,
        best.probabilities.to_array(),
        started,
    );
    line.push_str(&format!(" pv {mv}"));
    send(&line);
    let id = position_id::encode(&best.mv.position);
    if job.role == Role::Turn {
        send(&format!("bestturn cube=nodouble moveid={id} move={mv}"));
    } else {
        send(&format!("bestmoveid {id}"));
        send(&format!("bestmove {mv}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::Step;

    #[test]
    fn moves_in_ubgi_notation() {
        assert_eq!(ubgi_move(&Move::NONE), "pass");
        let mv = Move::from_steps(&[Step { from: 25, to: 22 }, Step { from: 6, to: 0 }]);
        assert_eq!(ubgi_move(&mv), "bar/22 6/off");
    }

    #[test]
    fn crawford_is_derived_from_the_score() {
        let mut c = Context::new();
        c.match_length = 5;
        c.score = [4, 2];
        assert!(c.crawford());
        c.crawford_game = Some(false);
        assert!(!c.crawford());
        c.crawford_game = None;
        c.score = [4, 4];
        assert!(!c.crawford());
        c.crawford_rule = false;
        c.score = [4, 2];
        assert!(!c.crawford());
    }
}

// The line generator shared with tests/fuzz.rs (also loaded by the other protocol's module).
#[cfg(test)]
#[path = "../tests/fuzz/lines.rs"]
#[allow(clippy::duplicate_mod)]
mod fuzz_lines;

/// Mutated UBGI lines straight into the command handler (`tests/fuzz.rs` sends a few thousand
/// through the binary). `ubgi` and `isready` (no arguments; they print and load the nets) are
/// skipped, and a `go` runs without a position, so that its arguments are read and checked but
/// no search starts. `cargo test --release -p cubeful-cli --bin cubeful-cli -- --ignored million`.
#[cfg(test)]
mod fuzz_tests {
    use super::fuzz_lines::{seed, ubgi_case, ubgi_seeds, Rng, Tally};
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        engine: EngineArgs,
    }

    /// Runs `cases` lines; returns the error messages that are not one line under 1,000 bytes.
    fn fuzz(cases: usize, seed: u64) -> usize {
        let started = Instant::now();
        let mut engine = Engine::new(Cli::parse_from(["ubgi", "--no-bearoff"]).engine);
        let seeds = ubgi_seeds();
        let mut rng = Rng(seed);
        let (mut tally, mut skipped) = (Tally::default(), 0);
        for _ in 0..cases {
            let line = ubgi_case(&mut rng, &seeds);
            let line = line.trim();
            let keyword = line.split_whitespace().next().unwrap_or_default();
            if line.is_empty() || line == "quit" || keyword == "ubgi" || keyword == "isready" {
                skipped += 1;
                continue;
            }
            let position = if keyword == "go" {
                engine.context.position.take()
            } else {
                None
            };
            let answer = engine.command(line);
            assert!(engine.running.is_none(), "{line:?} started a search");
            if position.is_some() {
                engine.context.position = position;
            }
            match answer {
                Ok(()) => tally.answered += 1,
                Err(e) => {
                    assert!(!e.message.is_empty(), "{line:?}");
                    tally.refuse(&e.message, line);
                }
            }
        }
        tally.report(
            "UBGI in process",
            cases,
            &format!(", {skipped} skipped"),
            started,
        )
    }

    #[test]
    fn mutated_lines() {
        let _ = fuzz(20_000, seed(0xF022_0201));
    }

    #[test]
    #[ignore = "a million cases: cargo test --release -p cubeful-cli --bin cubeful-cli -- --ignored"]
    fn mutated_lines_million() {
        let _ = fuzz(1_000_000, seed(0xF022_1201));
    }

    /// Every error message is one line under 1,000 bytes.
    #[test]
    fn error_messages_are_one_short_line() {
        assert_eq!(fuzz(20_000, seed(0xF022_2201)), 0);
    }
}
