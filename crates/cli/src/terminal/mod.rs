//! `cubeful-cli` without a subcommand: an interactive session in the spirit of `gnubg -t`.
//!
//! Commands are read from the terminal (with line editing and a history kept in the user's data
//! folder), from standard input when it is not a terminal, or from a file (`-c FILE`). Player 0
//! (O) is the bot and player 1 (X) the human unless `set player` says otherwise; the bot plays
//! its turns by itself, and the board is printed with its Position ID and Match ID whenever the
//! game changed. Refused commands print why and change nothing; when commands come from a file or
//! a pipe, the exit status is 2 if any was refused.

mod commands;
mod render;
mod tutor;

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use cubeful_engine::analysis::bot::Bot;
use cubeful_engine::analysis::hint::{self, Hint, Query, Question};
use cubeful_engine::files::write_atomically;
use cubeful_engine::formats::match_file::MatchFormat;
use cubeful_engine::formats::quote;
use cubeful_engine::formats::text;
use cubeful_engine::game::flow::{self, Flow as GameFlow, Next};
use cubeful_engine::game::{splitmix64, Decision, Event, Game, RandomDice, Rules};
use cubeful_engine::search::{EvalSettings, Level, Search};
use cubeful_engine::{gnubg_id, match_id, position_id, xgid, MatchState, Player, Position};
use serde::Serialize;

use crate::nets::EngineArgs;
use crate::one_line;
use crate::report;
use commands::{Command, FileKind, PlayerKind, PlayerRef, ShowWhat};
use render::Names;

/// Options of the terminal session (given to `cubeful-cli` itself, without a subcommand).
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Run the commands in FILE (one per line) and exit.
    #[arg(short = 'c', long = "commands", value_name = "FILE")]
    pub commands: Option<PathBuf>,
    /// Seed of the dice, for reproducible games [default: random].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Level of the bot (player 0) and of hints: beginner … expert, worldclass, supremo,
    /// grandmaster.
    #[arg(long, default_value = "worldclass")]
    pub level: Level,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Most actions the bots take in a row before the session stops them (a safety net: a match
/// always ends long before).
const MAX_BOT_ACTIONS: usize = 100_000;

/// The state of a terminal session.
struct Session {
    game: Option<Game>,
    kinds: [PlayerKind; 2],
    names: Names,
    level: Level,
    engine: EngineArgs,
    search: Option<Search>,
    /// Seed of the next dice source.
    seed: u64,
    /// Rules for the next match or session.
    jacoby: bool,
    beavers: bool,
    /// Output of the current command, written out by the input loop.
    out: String,
    refused: usize,
    /// The tutor (`set tutor on`, `tutor.rs`).
    tutor: tutor::Tutor,
}

/// Runs the session.
pub fn run(args: &Args) -> Result<()> {
    // Nets given with --nets are checked before the session starts, as `eval` checks them: a
    // session that cannot evaluate fails at once instead of refusing every command.
    if args.engine.nets.nets.is_some() {
        args.engine.nets.load()?;
    }
    let mut session = Session::new(args);
    let interactive = args.commands.is_none() && io::stdin().is_terminal();
    if interactive {
        session.say(format!(
            "Cubeful {} -- type 'help' for the commands, 'new match 5' or 'new session' to play.",
            env!("CARGO_PKG_VERSION")
        ));
        session.flush()?;
        return run_interactive(&mut session);
    }
    match &args.commands {
        Some(path) => {
            // A script, not a data stream: a regular file of at most 64 MiB.
            let text = cubeful_engine::files::read_regular(path, 64 << 20)
                .with_context(|| format!("cannot read the commands in {}", path.display()))?;
            read_lines(&mut session, &text[..])?;
        }
        None => read_lines(&mut session, io::stdin().lock())?,
    }
    match session.refused {
        0 => Ok(()),
        1 => bail!("1 command was refused"),
        n => bail!("{n} commands were refused"),
    }
}

/// Runs the commands of `input` (standard input or the bytes of a `--commands` file), one a
/// line, until its end or `quit`. A line that is not UTF-8 is refused like a bad command (one
/// error line) and the next one is read.
fn read_lines(session: &mut Session, mut input: impl BufRead) -> Result<()> {
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        let read = input
            .read_until(b'\n', &mut bytes)
            .context("cannot read standard input")?;
        if read == 0 {
            break;
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
        }
        let flow = match std::str::from_utf8(&bytes) {
            Ok(line) => session.execute_line(line),
            Err(_) => {
                session.refuse(&anyhow!("line {number} is not valid UTF-8"));
                Flow::Continue
            }
        };
        session.flush()?;
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}

fn history_file() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Cubeful", "cubeful")
        .map(|d| d.data_dir().join("terminal-history.txt"))
}

fn run_interactive(session: &mut Session) -> Result<()> {
    use rustyline::error::ReadlineError;
    let config = rustyline::Config::builder()
        .auto_add_history(true)
        .max_history_size(1000)
        .context("line editor settings")?
        .build();
    let mut editor =
        rustyline::DefaultEditor::with_config(config).context("cannot start the line editor")?;
    let history = history_file();
    if let Some(path) = &history {
        // No history yet is fine.
        let _ = editor.load_history(path);
    }
    loop {
        match editor.readline("(cubeful) ") {
            Ok(line) => {
                let flow = session.execute_line(&line);
                session.flush()?;
                if flow == Flow::Quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => {
                session.say("(type 'quit' to leave)");
                session.flush()?;
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(anyhow!(e).context("cannot read the terminal")),
        }
    }
    if let Some(path) = &history {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(path);
    }
    Ok(())
}

/// The human's default name: the login name, as GNU Backgammon does, else "user".
fn default_user_name() -> String {
    std::env::var("USER")
        .ok()
        .filter(|n| {
            !n.is_empty() && !n.eq_ignore_ascii_case("cubeful") && !n.chars().any(char::is_control)
        })
        .unwrap_or_else(|| "user".to_string())
}

#[derive(Serialize)]
struct EvalJson {
    position_id: String,
    plies: u8,
    win: f32,
    win_gammon: f32,
    win_backgammon: f32,
    lose_gammon: f32,
    lose_backgammon: f32,
    cubeless_equity: f32,
    cubeful_equity: f32,
    mwc: Option<f32>,
}

impl Session {
    fn new(args: &Args) -> Session {
        let seed = args.seed.unwrap_or_else(rand::random);
        Session {
            game: None,
            kinds: [PlayerKind::Bot(args.level), PlayerKind::Human],
            names: ["cubeful".to_string(), default_user_name()],
            level: args.level,
            engine: args.engine.clone(),
            search: None,
            seed,
            jacoby: true,
            beavers: true,
            out: String::new(),
            refused: 0,
            tutor: tutor::Tutor::default(),
        }
    }

    fn say(&mut self, text: impl AsRef<str>) {
        self.out.push_str(text.as_ref());
        if !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    fn flush(&mut self) -> Result<()> {
        let mut stdout = io::stdout().lock();
        stdout
            .write_all(self.out.as_bytes())
            .and_then(|()| stdout.flush())
            .context("cannot write to standard output")?;
        self.out.clear();
        Ok(())
    }

    fn execute_line(&mut self, line: &str) -> Flow {
        let command = match commands::parse(line) {
            Ok(Command::Quit) => return Flow::Quit,
            Ok(c) => c,
            Err(e) => {
                self.refuse(&anyhow!(e));
                return Flow::Continue;
            }
        };
        let changes = command_changes_game(&command);
        match self.execute(command) {
            Ok(()) => {
                if changes {
                    if let Err(e) = self.advance() {
                        self.refuse(&e);
                    }
                    self.show_state();
                }
            }
            Err(e) => self.refuse(&e),
        }
        Flow::Continue
    }

    fn refuse(&mut self, error: &anyhow::Error) {
        self.refused += 1;
        self.say(format!("Refused: {}", one_line(error)));
    }

    /// The board and what is expected next, after a change.
    fn show_state(&mut self) {
        if let Some(game) = &self.game {
            let mut text = render::board(game, &self.names);
            if let Some(line) = render::prompt_line(game, &self.names) {
                text.push_str(&line);
            }
            self.say(text);
        }
    }

    fn game(&self) -> Result<&Game> {
        self.game
            .as_ref()
            .ok_or_else(|| anyhow!("no game in progress (type 'new match N' or 'new session')"))
    }

    fn game_mut(&mut self) -> Result<&mut Game> {
        self.game
            .as_mut()
            .ok_or_else(|| anyhow!("no game in progress (type 'new match N' or 'new session')"))
    }

    fn search(&mut self) -> Result<&mut Search> {
        if self.search.is_none() {
            let mut search = self.engine.search()?;
            search.set_noise_seed(self.seed);
            self.search = Some(search);
        }
        self.search
            .as_mut()
            .ok_or_else(|| anyhow!("the engine is not available"))
    }

    fn settings(&self) -> EvalSettings {
        self.level.settings()
    }

    fn dice_source(&mut self) -> Box<RandomDice> {
        Box::new(RandomDice::new(splitmix64(&mut self.seed)))
    }

    /// Prints the messages of `events`.
    fn report(&mut self, events: &[Event]) {
        let Some(game) = &self.game else { return };
        let lines: Vec<String> = events
            .iter()
            .filter_map(|e| render::event_line(e, &self.names, game))
            .collect();
        for line in lines {
            self.say(line);
        }
    }

    /// Runs `f` on the game and reports its events.
    fn act(
        &mut self,
        f: impl FnOnce(&mut Game) -> Result<Vec<Event>, cubeful_engine::game::GameError>,
    ) -> Result<()> {
        let events = f(self.game_mut()?)?;
        self.report(&events);
        Ok(())
    }

    /// The human who acts now: the player who has to act, who must not be a bot.
    fn actor(&self) -> Result<Player> {
        let game = self.game()?;
        let player = game.to_act().unwrap_or_else(|| game.on_roll());
        if let PlayerKind::Bot(_) = self.kinds[player.index()] {
            if game.to_act().is_some() {
                bail!(
                    "it is {}'s turn, and {} is played by the bot",
                    self.names[player.index()],
                    self.names[player.index()]
                );
            }
        }
        Ok(player)
    }

    fn resolve(&self, who: &PlayerRef) -> Result<Player> {
        match who {
            PlayerRef::Index(p) => Ok(*p),
            PlayerRef::Name(name) => [Player::Zero, Player::One]
                .into_iter()
                .find(|p| self.names[p.index()].eq_ignore_ascii_case(name))
                .ok_or_else(|| {
                    anyhow!(
                        "no player is called '{name}' (use 0, 1, O, X, {} or {})",
                        self.names[0],
                        self.names[1]
                    )
                }),
        }
    }

    fn new_rules(&self, match_length: u16) -> Rules {
        if match_length == 0 {
            Rules {
                jacoby: self.jacoby,
                beavers: self.beavers,
                ..Rules::money()
            }
        } else {
            Rules::match_to(match_length)
        }
    }

    fn start(&mut self, rules: Rules) -> Result<()> {
        let dice = self.dice_source();
        let mut game = Game::new(rules, dice)?;
        let events = game.new_game()?;
        self.game = Some(game);
        self.report(&events);
        Ok(())
    }

    /// A game set up from a position and match state, keeping the players and rules.
    fn setup(&mut self, position: Position, state: MatchState) -> Result<()> {
        let dice = self.dice_source();
        let rules = self.new_rules(state.match_length);
        let game = Game::from_position(rules, position, state, dice)?;
        self.game = Some(game);
        Ok(())
    }

    /// The position and match state to keep when only one of them is set.
    fn current_or_default(&self) -> (Position, MatchState) {
        match &self.game {
            Some(g) if g.in_progress() => (g.position(), g.match_state()),
            Some(g) => (
                Position::starting(),
                MatchState {
                    score: g.match_state().score,
                    jacoby: self.jacoby,
                    ..MatchState::new_match(g.rules().match_length)
                },
            ),
            None => (
                Position::starting(),
                MatchState {
                    jacoby: self.jacoby,
                    ..MatchState::money()
                },
            ),
        }
    }

    fn execute(&mut self, command: Command) -> Result<()> {
        self.tutor_check(&command)?;
        match command {
            Command::Nothing | Command::Quit => Ok(()),
            Command::NewMatch(length) => {
                let rules = self.new_rules(length);
                self.start(rules)
            }
            Command::NewSession => {
                let rules = self.new_rules(0);
                self.start(rules)
            }
            Command::NewGame => match &mut self.game {
                None => {
                    let rules = self.new_rules(0);
                    self.start(rules)
                }
                Some(_) => self.act(|g| g.new_game()),
            },
            Command::Roll => {
                let p = self.actor()?;
                self.act(|g| g.roll(p))
            }
            Command::Move(text) => {
                let p = self.actor()?;
                self.act(|g| g.play_text(p, &text))
            }
            Command::Double => {
                let p = self.actor()?;
                self.act(|g| g.double(p))
            }
            Command::Redouble => {
                let p = self.actor()?;
                if matches!(self.game()?.decision(), Decision::AnswerDouble { .. }) {
                    self.act(|g| g.beaver(p))
                } else {
                    self.act(|g| g.double(p))
                }
            }
            Command::Take => {
                let p = self.actor()?;
                self.act(|g| g.take(p))
            }
            Command::Drop => {
                let p = self.actor()?;
                self.act(|g| g.drop_double(p))
            }
            Command::Beaver => {
                let p = self.actor()?;
                self.act(|g| g.beaver(p))
            }
            Command::Resign(r) => {
                let p = self.actor()?;
                self.act(|g| g.resign(p, r))
            }
            Command::Accept => {
                let p = self.actor()?;
                match self.game()?.decision() {
                    Decision::AnswerResignation { .. } => self.act(|g| g.accept_resignation(p)),
                    Decision::AnswerDouble { .. } => self.act(|g| g.take(p)),
                    _ => bail!(
                        "there is nothing to accept: no double and no resignation is on offer"
                    ),
                }
            }
            Command::Reject => {
                let p = self.actor()?;
                match self.game()?.decision() {
                    Decision::AnswerResignation { .. } => self.act(|g| g.reject_resignation(p)),
                    Decision::AnswerDouble { .. } => self.act(|g| g.drop_double(p)),
                    _ => bail!(
                        "there is nothing to reject: no double and no resignation is on offer"
                    ),
                }
            }
            Command::Hint { count, json } => self.hint(count, json),
            Command::Eval { json } => self.eval(json),
            Command::SetBoard(id) => {
                let position = position_id::decode(&id)
                    .with_context(|| format!("bad Position ID {}", quote(&id)))?;
                match &mut self.game {
                    Some(g) if g.in_progress() => Ok(g.set_position(position)?),
                    _ => {
                        let (_, state) = self.current_or_default();
                        self.setup(position, state)
                    }
                }
            }
            Command::SetMatchId(id) => {
                let state = match_id::decode(&id)
                    .with_context(|| format!("bad Match ID {}", quote(&id)))?;
                let (position, _) = self.current_or_default();
                // The current checkers are kept, oriented to the new player on roll.
                let position = match &self.game {
                    Some(g) if g.in_progress() && g.on_roll() != state.on_roll => position.swap(),
                    _ => position,
                };
                self.setup(position, state)
            }
            Command::SetGnubgId(id) => {
                let (position, state) =
                    gnubg_id::decode_parts(&id).context("bad GNU Backgammon ID")?;
                let state = match state {
                    Some(s) => s,
                    None => self.current_or_default().1,
                };
                self.setup(position, state)
            }
            Command::SetXgid(id) => {
                let (position, state) =
                    xgid::decode(&id).with_context(|| format!("bad XGID {}", quote(&id)))?;
                self.setup(position, state)
            }
            Command::SetDice(dice) => self.act(|g| g.set_dice(dice)),
            Command::SetTurn(who) => {
                let p = self.resolve(&who)?;
                Ok(self.game_mut()?.set_turn(p)?)
            }
            Command::SetPlayerKind { players, kind } => {
                let which = match players {
                    None => vec![Player::Zero, Player::One],
                    Some(who) => vec![self.resolve(&who)?],
                };
                for p in which {
                    self.kinds[p.index()] = kind;
                    let what = match kind {
                        PlayerKind::Human => "a human".to_string(),
                        PlayerKind::Bot(level) => format!("the bot at level {}", level.name()),
                    };
                    let line = format!("{} is played by {what}.", self.names[p.index()]);
                    self.say(line);
                }
                Ok(())
            }
            Command::SetPlayerName { player, name } => {
                let p = self.resolve(&player)?;
                if name.chars().any(char::is_control) {
                    bail!("a name cannot contain control characters");
                }
                let other = &self.names[p.other().index()];
                if other.eq_ignore_ascii_case(&name) {
                    bail!("the other player is already called '{other}'");
                }
                self.names[p.index()] = name;
                Ok(())
            }
            Command::SetJacoby(on) => {
                self.jacoby = on;
                if let Some(g) = &mut self.game {
                    g.set_jacoby(on);
                }
                self.say(format!(
                    "Money sessions are played {} the Jacoby rule.",
                    if on { "with" } else { "without" }
                ));
                Ok(())
            }
            Command::SetTutor(on) => {
                self.tutor.on = on;
                self.say(format!(
                    "The tutor is {}.",
                    if on {
                        "on: bad plays and cube actions are refused with a warning once"
                    } else {
                        "off"
                    }
                ));
                Ok(())
            }
            Command::SetBeavers(on) => {
                self.beavers = on;
                if let Some(g) = &mut self.game {
                    g.set_beavers(on);
                }
                self.say(format!(
                    "Beavers are {} in money sessions.",
                    if on { "allowed" } else { "not allowed" }
                ));
                Ok(())
            }
            Command::SetCrawford(on) => {
                self.game_mut()?.set_crawford_game(on)?;
                self.say(if on {
                    "This game is the Crawford game."
                } else {
                    "This game is not the Crawford game."
                });
                Ok(())
            }
            Command::SetSeed(seed) => {
                self.seed = seed;
                let dice = self.dice_source();
                if let Some(g) = &mut self.game {
                    g.set_dice_source(dice);
                }
                if let Some(s) = &mut self.search {
                    s.set_noise_seed(seed);
                }
                self.say(format!("The dice are seeded with {seed}."));
                Ok(())
            }
            Command::Show { what, json } => self.show(what, json),
            Command::Help(topic) => {
                self.help(topic.as_deref())?;
                Ok(())
            }
            Command::SaveMatch(path) => self.write_match(&path, FileKind::Sgf),
            Command::ExportMatch { format, path } => self.write_match(&path, format),
            Command::LoadMatch(path) => self.load_match(&path),
            Command::ExportPosition(path) => {
                let game = self.game()?;
                let names = [self.names[0].as_str(), self.names[1].as_str()];
                let text = text::export_position(&game.position(), &game.match_state(), names);
                write_atomically(Path::new(&path), text.as_bytes())?;
                self.say(format!("Position written to {path}."));
                Ok(())
            }
        }
    }

    /// Who plays which side, and the terminal's routine steps: a person who cannot double is
    /// rolled for, and the next game of a match (or of a session with a person in it) starts
    /// by itself.
    fn flow(&self) -> GameFlow {
        GameFlow {
            computer: self.kinds.map(|k| matches!(k, PlayerKind::Bot(_))),
            auto_roll: true,
            manual_dice: false,
            auto_next_game: true,
        }
    }

    /// Lets the bots play and does the routine steps ([`flow::next`]) until a person has to
    /// decide or the game waits for `new game`.
    fn advance(&mut self) -> Result<()> {
        for _ in 0..MAX_BOT_ACTIONS {
            let Some(game) = &self.game else {
                return Ok(());
            };
            match flow::next(game, &self.flow()) {
                Next::NextGame => self.act(|g| g.new_game())?,
                Next::AutoRoll(player) => self.act(|g| g.roll(player))?,
                Next::BotDecides(decision) => {
                    let Some(PlayerKind::Bot(level)) =
                        decision.player().map(|p| self.kinds[p.index()])
                    else {
                        return Ok(());
                    };
                    let game = self.game.clone().ok_or_else(|| anyhow!("no game"))?;
                    let choice = Bot::new(level).choose(&game, self.search()?);
                    let Some((player, action)) = choice else {
                        return Ok(());
                    };
                    self.act(|g| g.apply(player, action))?;
                }
                Next::HumanDecides(_)
                | Next::OpeningRoll
                | Next::EnterDice(_)
                | Next::GameOver
                | Next::MatchOver(_) => return Ok(()),
            }
        }
        bail!("the bots stopped after {MAX_BOT_ACTIONS} actions")
    }

    fn show(&mut self, what: ShowWhat, json: bool) -> Result<()> {
        let game = self.game()?;
        let text = match (what, json) {
            (ShowWhat::Board, false) => {
                let mut t = render::board(game, &self.names);
                if let Some(line) = render::prompt_line(game, &self.names) {
                    t.push_str(&line);
                }
                t
            }
            (ShowWhat::Board, true) => {
                serde_json::to_string(&render::BoardJson::new(game, &self.names))?
            }
            (ShowWhat::Score, false) => render::score_line(game, &self.names),
            (ShowWhat::Score, true) => {
                serde_json::to_string(&render::ScoreJson::new(game, &self.names))?
            }
            (ShowWhat::Pipcount, false) => {
                let p = render::pips(game);
                format!(
                    "The pip counts are: {} {}, {} {}.",
                    self.names[0], p[0], self.names[1], p[1]
                )
            }
            (ShowWhat::Pipcount, true) => {
                serde_json::to_string(&render::PipsJson::new(game, &self.names))?
            }
        };
        self.say(text);
        Ok(())
    }

    /// Writes the match so far (with the session's player names) in `kind`'s format.
    fn write_match(&mut self, path: &str, kind: FileKind) -> Result<()> {
        let game = self.game()?;
        let mut record = game.record().clone();
        record.info.players = self.names.clone();
        let format = match kind {
            FileKind::Sgf => MatchFormat::Sgf,
            FileKind::Mat => MatchFormat::Mat,
            FileKind::Text => MatchFormat::Text,
        };
        crate::matches::save(Path::new(path), &record, format)?;
        self.say(format!("Match written to {path}."));
        Ok(())
    }

    /// Loads a match file and goes on from where it stops.
    fn load_match(&mut self, path: &str) -> Result<()> {
        let loaded = crate::matches::load(Path::new(path))?;
        for warning in &loaded.warnings {
            self.say(format!("warning: {warning}"));
        }
        let dice = self.dice_source();
        let game = Game::from_record(&loaded.record, dice)?;
        for (name, loaded_name) in self.names.iter_mut().zip(&loaded.record.info.players) {
            if !loaded_name.is_empty() {
                name.clone_from(loaded_name);
            }
        }
        let games = loaded.record.games.len();
        self.game = Some(game);
        self.say(format!(
            "Loaded {path}: {games} game{}, {} vs {}.",
            if games == 1 { "" } else { "s" },
            self.names[0],
            self.names[1]
        ));
        Ok(())
    }

    fn help(&mut self, topic: Option<&str>) -> Result<()> {
        match topic {
            None => {
                let mut text = String::from("Commands (type 'help COMMAND' for details):\n");
                for (_, usage, description, _) in commands::HELP {
                    text.push_str(&format!("  {usage:<38} {description}\n"));
                }
                text.push_str("A move may also be typed without 'move': 8/5 6/5.");
                self.say(text);
            }
            Some(topic) => {
                let word = topic.split_whitespace().next().unwrap_or_default();
                let lower = word.to_ascii_lowercase();
                let entry = commands::HELP
                    .iter()
                    .find(|h| h.0 == lower)
                    .or_else(|| {
                        let matching: Vec<_> = commands::HELP
                            .iter()
                            .filter(|h| h.0.starts_with(&lower))
                            .collect();
                        (matching.len() == 1).then(|| matching[0])
                    })
                    .ok_or_else(|| anyhow!("no help for '{topic}' (type 'help' for the list)"))?;
                let (_, usage, description, example) = entry;
                self.say(format!("{usage}\n  {description}\n  Example: {example}"));
            }
        }
        Ok(())
    }

    /// The hint for the decision pending, from the engine's one hint function: the best
    /// `count` plays, the cube decision, or the answer to a double or a resignation.
    fn hint(&mut self, count: Option<usize>, json: bool) -> Result<()> {
        let game = self.game()?;
        let query = Query::from_game(game)
            .ok_or_else(|| anyhow!("there is no decision to give a hint about"))?;
        let settings = self.settings();
        let mut hint = hint::hint(self.search()?, &query, &settings);
        if let (Hint::Moves(plays), Some(n)) = (&mut hint, count) {
            plays.moves.truncate(n);
        }
        if json {
            self.say(serde_json::to_string(&hint)?);
        } else {
            let heading = match query.question {
                Question::Move(dice) => format!("Best plays of {dice}:"),
                _ => String::new(),
            };
            self.say(report::hint_text(&hint, &heading, count.unwrap_or(10)));
        }
        Ok(())
    }

    fn eval(&mut self, json: bool) -> Result<()> {
        let game = self.game()?.clone();
        let settings = self.settings();
        let position = game.position();
        let state = game.match_state();
        let beavers = game.rules().beavers_apply();
        let e = hint::evaluate(self.search()?, &position, &state, beavers, &settings);
        let p = e.probabilities;
        if json {
            self.say(serde_json::to_string(&EvalJson {
                position_id: position_id::encode(&position),
                plies: e.plies,
                win: p.win,
                win_gammon: p.win_gammon,
                win_backgammon: p.win_backgammon,
                lose_gammon: p.lose_gammon,
                lose_backgammon: p.lose_backgammon,
                cubeless_equity: e.cubeless,
                cubeful_equity: e.cubeful,
                mwc: e.mwc,
            })?);
        } else {
            let mut text = format!(
                "Evaluation for {} (on roll), {}-ply:\n   Win     W(g)    W(bg)   L(g)    L(bg)   Cubeless  Cubeful\n   {:.3}   {:.3}   {:.3}   {:.3}   {:.3}   {:+.3}    {:+.3}",
                self.names[game.on_roll().index()],
                e.plies,
                p.win,
                p.win_gammon,
                p.win_backgammon,
                p.lose_gammon,
                p.lose_backgammon,
                e.cubeless,
                e.cubeful
            );
            if let Some(mwc) = e.mwc {
                text.push_str(&format!(
                    "\n   Match winning chance (cubeful): {:.1}%",
                    100.0 * mwc
                ));
            }
            self.say(text);
        }
        Ok(())
    }
}

/// Whether a command can change the game (the board is shown and the bots play after it).
fn command_changes_game(command: &Command) -> bool {
    !matches!(
        command,
        Command::Nothing
            | Command::Quit
            | Command::Hint { .. }
            | Command::Eval { .. }
            | Command::Show { .. }
            | Command::Help(_)
            | Command::SetPlayerName { .. }
            | Command::SetJacoby(_)
            | Command::SetBeavers(_)
            | Command::SetTutor(_)
            | Command::SetSeed(_)
            | Command::SaveMatch(_)
            | Command::ExportMatch { .. }
            | Command::ExportPosition(_)
    )
}
