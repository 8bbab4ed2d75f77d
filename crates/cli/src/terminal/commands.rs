//! The commands of the terminal session, parsed from one input line each.
//!
//! Keywords are case-insensitive and may be abbreviated as long as they stay unambiguous among
//! the words allowed at that place (`r` for `roll`, `sh b` for `show board`), as in GNU
//! Backgammon. A line that starts with a digit or with `bar` is a move (`8/5 6/5`).

use std::fmt;

use cubeful_engine::formats::shorten;
use cubeful_engine::search::Level;
use cubeful_engine::{Dice, Player, Resignation};

/// A player named in a command: by number (`0`, `1`), by checker colour (`O`, `X`) or by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerRef {
    Index(Player),
    Name(String),
}

impl PlayerRef {
    fn parse(word: &str) -> PlayerRef {
        match word.to_ascii_lowercase().as_str() {
            "0" | "o" => PlayerRef::Index(Player::Zero),
            "1" | "x" => PlayerRef::Index(Player::One),
            _ => PlayerRef::Name(word.to_string()),
        }
    }
}

/// Who plays for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// Commands typed in the session.
    Human,
    /// The engine, at a level.
    Bot(Level),
}

/// What `show` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShowWhat {
    Board,
    Score,
    Pipcount,
}

/// One command of the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Nothing to do (a blank line or a comment starting with `#`).
    Nothing,
    NewMatch(u16),
    NewSession,
    NewGame,
    Roll,
    /// A move in any notation the engine reads.
    Move(String),
    Double,
    /// Beaver when a double is on offer, otherwise double.
    Redouble,
    Take,
    Drop,
    Beaver,
    Resign(Resignation),
    /// Take a double or accept a resignation, whichever is on offer.
    Accept,
    /// Drop a double or reject a resignation, whichever is on offer.
    Reject,
    Hint {
        count: Option<usize>,
        json: bool,
    },
    Eval {
        json: bool,
    },
    SetBoard(String),
    SetMatchId(String),
    SetGnubgId(String),
    SetXgid(String),
    SetDice(Dice),
    SetTurn(PlayerRef),
    /// `players` empty means both.
    SetPlayerKind {
        players: Option<PlayerRef>,
        kind: PlayerKind,
    },
    SetPlayerName {
        player: PlayerRef,
        name: String,
    },
    SetJacoby(bool),
    SetCrawford(bool),
    SetBeavers(bool),
    /// `set tutor on|off`: the tutor judges people's plays and cube actions.
    SetTutor(bool),
    SetSeed(u64),
    Show {
        what: ShowWhat,
        json: bool,
    },
    Help(Option<String>),
    /// `save match FILE`: the match as SGF.
    SaveMatch(String),
    /// `load match FILE` (SGF or .mat) and `import mat FILE`: play on from the end of it.
    LoadMatch(String),
    /// `export match mat|text|sgf FILE`.
    ExportMatch {
        format: FileKind,
        path: String,
    },
    /// `export position text FILE`.
    ExportPosition(String),
    Quit,
}

/// The format of an exported match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Sgf,
    Mat,
    Text,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

fn err<T>(message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(message.into()))
}

/// The top-level command words, in the order `help` lists them.
pub const COMMANDS: &[&str] = &[
    "new", "roll", "move", "double", "redouble", "take", "drop", "beaver", "resign", "accept",
    "reject", "hint", "eval", "set", "show", "help", "quit", "save", "load", "import", "export",
];

/// Other words accepted at the top level: synonyms of the commands above.
const SYNONYMS: &[(&str, &str)] = &[
    ("r", "roll"),
    ("d", "double"),
    ("pass", "drop"),
    ("agree", "accept"),
    ("decline", "reject"),
    ("exit", "quit"),
    ("evaluate", "eval"),
];

/// Finds `word` among `choices`: an exact match, or the only choice it abbreviates.
fn pick<'a>(word: &str, choices: &[&'a str], what: &str) -> Result<&'a str, ParseError> {
    let w = word.to_ascii_lowercase();
    if let Some(exact) = choices.iter().find(|c| **c == w) {
        return Ok(exact);
    }
    let matching: Vec<&&str> = choices.iter().filter(|c| c.starts_with(&w)).collect();
    match matching.as_slice() {
        [one] => Ok(one),
        [] => err(format!("unknown {what} '{}'", shorten(word))),
        many => err(format!(
            "'{}' is ambiguous: {}",
            shorten(word),
            many.iter().map(|c| **c).collect::<Vec<_>>().join(", ")
        )),
    }
}

fn on_off(word: Option<&str>, setting: &str) -> Result<bool, ParseError> {
    match word.map(str::to_ascii_lowercase).as_deref() {
        Some("on" | "yes" | "true" | "1") => Ok(true),
        Some("off" | "no" | "false" | "0") => Ok(false),
        Some(other) => err(format!(
            "set {setting} takes on or off, not '{}'",
            shorten(other)
        )),
        None => err(format!("set {setting} takes on or off")),
    }
}

/// True if the line is a move written without the `move` command.
fn looks_like_move(first: &str) -> bool {
    let lower = first.to_ascii_lowercase();
    first.starts_with(|c: char| c.is_ascii_digit()) || lower.starts_with("bar")
}

/// Parses one input line.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(Command::Nothing);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let first = words[0];
    if looks_like_move(first) {
        return Ok(Command::Move(line.to_string()));
    }
    let rest = &words[1..];
    let lower = first.to_ascii_lowercase();
    let word = match SYNONYMS.iter().find(|(s, _)| *s == lower) {
        Some((_, target)) => *target,
        None => pick(first, COMMANDS, "command")
            .map_err(|e| ParseError(format!("{} (type 'help' for the list of commands)", e.0)))?,
    };
    let json = rest.iter().any(|w| w.eq_ignore_ascii_case("--json"));
    let args: Vec<&str> = rest
        .iter()
        .copied()
        .filter(|w| !w.eq_ignore_ascii_case("--json"))
        .collect();
    let no_args = |command: Command| {
        if args.is_empty() {
            Ok(command)
        } else {
            err(format!("'{}' takes no arguments", shorten(word)))
        }
    };
    match word {
        "new" => parse_new(&args),
        "roll" => no_args(Command::Roll),
        "move" => {
            let text = line[first.len()..].trim();
            Ok(Command::Move(text.to_string()))
        }
        "double" => no_args(Command::Double),
        "redouble" => no_args(Command::Redouble),
        "take" => no_args(Command::Take),
        "drop" => no_args(Command::Drop),
        "beaver" => no_args(Command::Beaver),
        "accept" => no_args(Command::Accept),
        "reject" => no_args(Command::Reject),
        "resign" => parse_resign(&args),
        "hint" => match args.as_slice() {
            [] => Ok(Command::Hint { count: None, json }),
            [n] => match n.parse::<usize>() {
                Ok(count) if count > 0 => Ok(Command::Hint {
                    count: Some(count),
                    json,
                }),
                _ => err(format!(
                    "hint takes a number of moves to show, not '{}'",
                    shorten(n)
                )),
            },
            _ => err("usage: hint [N] [--json]"),
        },
        "eval" => no_args(Command::Eval { json }),
        "set" => parse_set(&args),
        "show" => parse_show(&args, json),
        "help" => match args.as_slice() {
            [] => Ok(Command::Help(None)),
            words => Ok(Command::Help(Some(words.join(" ")))),
        },
        "quit" => Ok(Command::Quit),
        "save" | "load" | "import" | "export" => parse_file_command(word, line, &args),
        _ => err(format!("unknown command '{}'", shorten(first))),
    }
}

/// The file name: everything after the first `skip` words of the line (names may hold blanks).
fn file_name(line: &str, skip: usize) -> Option<String> {
    let mut rest = line.trim_start();
    for _ in 0..skip {
        let end = rest.find(char::is_whitespace)?;
        rest = rest[end..].trim_start();
    }
    let name = rest.trim_end();
    (!name.is_empty()).then(|| name.to_string())
}

fn parse_file_command(word: &str, line: &str, args: &[&str]) -> Result<Command, ParseError> {
    let what = args.first().map(|w| w.to_ascii_lowercase());
    match (word, what.as_deref()) {
        ("save", Some("match")) => match file_name(line, 2) {
            Some(path) => Ok(Command::SaveMatch(path)),
            None => err("usage: save match FILE"),
        },
        ("load", Some("match")) => match file_name(line, 2) {
            Some(path) => Ok(Command::LoadMatch(path)),
            None => err("usage: load match FILE"),
        },
        ("import", Some("mat")) => match file_name(line, 2) {
            Some(path) => Ok(Command::LoadMatch(path)),
            None => err("usage: import mat FILE"),
        },
        ("export", Some("match")) => {
            let format = match args.get(1).map(|w| w.to_ascii_lowercase()).as_deref() {
                Some("mat") => FileKind::Mat,
                Some("text") => FileKind::Text,
                Some("sgf") => FileKind::Sgf,
                _ => return err("usage: export match mat|text|sgf FILE"),
            };
            match file_name(line, 3) {
                Some(path) => Ok(Command::ExportMatch { format, path }),
                None => err("usage: export match mat|text|sgf FILE"),
            }
        }
        ("export", Some("position")) => match (args.get(1), file_name(line, 3)) {
            (Some(w), Some(path)) if w.eq_ignore_ascii_case("text") => {
                Ok(Command::ExportPosition(path))
            }
            _ => err("usage: export position text FILE"),
        },
        ("save", _) => err("usage: save match FILE"),
        ("load", _) => err("usage: load match FILE"),
        ("import", _) => err("usage: import mat FILE"),
        _ => err("usage: export match mat|text|sgf FILE, or export position text FILE"),
    }
}

fn parse_new(args: &[&str]) -> Result<Command, ParseError> {
    let Some(what) = args.first() else {
        return err("usage: new match N | new session | new game");
    };
    match pick(what, &["match", "session", "game"], "kind of game")? {
        "match" => match args.get(1..) {
            Some([n]) => match n.parse::<u16>() {
                Ok(length) if length > 0 => Ok(Command::NewMatch(length)),
                _ => err(format!(
                    "the match length is a number of points from 1 up, not '{}'",
                    shorten(n)
                )),
            },
            _ => err("usage: new match N (the number of points to play to)"),
        },
        "session" if args.len() == 1 => Ok(Command::NewSession),
        "game" if args.len() == 1 => Ok(Command::NewGame),
        other => err(format!(
            "'new {}' takes no further arguments",
            shorten(other)
        )),
    }
}

fn parse_resign(args: &[&str]) -> Result<Command, ParseError> {
    match args {
        [] => Ok(Command::Resign(Resignation::Single)),
        [what] => {
            let r = match what.to_ascii_lowercase().as_str() {
                "1" => "single",
                "2" => "gammon",
                "3" => "backgammon",
                other if "normal".starts_with(other) => "single",
                _ => pick(what, &["single", "gammon", "backgammon"], "resignation")?,
            };
            Ok(Command::Resign(match r {
                "single" => Resignation::Single,
                "gammon" => Resignation::Gammon,
                _ => Resignation::Backgammon,
            }))
        }
        _ => err("usage: resign [single|gammon|backgammon]"),
    }
}

const SETTINGS: &[&str] = &[
    "board", "matchid", "gnubgid", "xgid", "dice", "turn", "player", "jacoby", "crawford",
    "beavers", "tutor", "seed",
];

fn parse_set(args: &[&str]) -> Result<Command, ParseError> {
    let Some(what) = args.first() else {
        return err(format!("usage: set {}", SETTINGS.join("|")));
    };
    let setting = pick(what, SETTINGS, "setting")?;
    let rest = &args[1..];
    let one = |usage: &str| -> Result<String, ParseError> {
        match rest {
            [] => err(format!("usage: set {setting} {usage}")),
            words => Ok(words.join(" ")),
        }
    };
    match setting {
        "board" => Ok(Command::SetBoard(one("POSITION-ID")?)),
        "matchid" => Ok(Command::SetMatchId(one("MATCH-ID")?)),
        "gnubgid" => Ok(Command::SetGnubgId(one("POSITION-ID:MATCH-ID")?)),
        "xgid" => Ok(Command::SetXgid(one("XGID")?)),
        "dice" => {
            let text = one("DICE (such as 31)")?;
            text.parse::<Dice>()
                .map(Command::SetDice)
                .map_err(|e| ParseError(e.to_string()))
        }
        "turn" => match rest {
            [who] => Ok(Command::SetTurn(PlayerRef::parse(who))),
            _ => err("usage: set turn 0|1|O|X|NAME"),
        },
        "player" => parse_set_player(rest),
        "jacoby" => Ok(Command::SetJacoby(on_off(rest.first().copied(), "jacoby")?)),
        "crawford" => Ok(Command::SetCrawford(on_off(
            rest.first().copied(),
            "crawford",
        )?)),
        "beavers" => Ok(Command::SetBeavers(on_off(
            rest.first().copied(),
            "beavers",
        )?)),
        "tutor" => Ok(Command::SetTutor(on_off(rest.first().copied(), "tutor")?)),
        "seed" => match rest {
            [n] => n.parse::<u64>().map(Command::SetSeed).map_err(|_| {
                ParseError(format!("the seed is a whole number, not '{}'", shorten(n)))
            }),
            _ => err("usage: set seed N"),
        },
        _ => err(format!("unknown setting '{}'", shorten(what))),
    }
}

fn parse_set_player(args: &[&str]) -> Result<Command, ParseError> {
    const USAGE: &str =
        "usage: set player 0|1|O|X|NAME|both human|bot [LEVEL] | set player 0|1 name NAME";
    let [who, what, rest @ ..] = args else {
        return err(USAGE);
    };
    let players = if who.eq_ignore_ascii_case("both") {
        None
    } else {
        Some(PlayerRef::parse(who))
    };
    match pick(what, &["human", "bot", "gnubg", "name"], "player type")? {
        "human" if rest.is_empty() => Ok(Command::SetPlayerKind {
            players,
            kind: PlayerKind::Human,
        }),
        "bot" | "gnubg" => {
            let level = match rest {
                [] => Level::WorldClass,
                words => words.join(" ").parse::<Level>().map_err(ParseError)?,
            };
            Ok(Command::SetPlayerKind {
                players,
                kind: PlayerKind::Bot(level),
            })
        }
        "name" => match (players, rest) {
            (Some(player), words) if !words.is_empty() => Ok(Command::SetPlayerName {
                player,
                name: words.join(" "),
            }),
            _ => err(USAGE),
        },
        _ => err(USAGE),
    }
}

fn parse_show(args: &[&str], json: bool) -> Result<Command, ParseError> {
    let what = match args {
        [] => ShowWhat::Board,
        [w] => match pick(w, &["board", "score", "pipcount"], "thing to show")? {
            "board" => ShowWhat::Board,
            "score" => ShowWhat::Score,
            _ => ShowWhat::Pipcount,
        },
        _ => return err("usage: show board|score|pipcount [--json]"),
    };
    Ok(Command::Show { what, json })
}

/// Help texts: (command, usage, description, example).
pub const HELP: &[(&str, &str, &str, &str)] = &[
    ("save", "save match FILE", "Save the match so far as GNU Backgammon SGF (written atomically).", "save match tonight.sgf"),
    ("load", "load match FILE", "Load a match (SGF or Jellyfish .mat) and play on from its end.", "load match tonight.sgf"),
    ("import", "import mat FILE", "Load a Jellyfish .mat match and play on from its end.", "import mat galaxy.mat"),
    ("export", "export match mat|text|sgf FILE | export position text FILE", "Write the match as .mat, plain text or SGF, or the position as text.", "export match mat tonight.mat"),
    ("new", "new match N | new session | new game", "Start a match to N points, a money session, or the next game of the match or session.", "new match 5"),
    ("roll", "roll", "Roll the dice (also the opening roll).", "roll"),
    ("move", "move MOVE | MOVE", "Play the rolled dice; any GNU Backgammon notation: 8/5 6/5, 13/11(2), bar/22*, 6/off.", "move 8/5 6/5"),
    ("double", "double", "Offer the cube before rolling (also a redouble when you own the cube).", "double"),
    ("redouble", "redouble", "Beaver a double on offer (as in GNU Backgammon); otherwise the same as double.", "redouble"),
    ("take", "take", "Accept the double on offer.", "take"),
    ("drop", "drop | pass", "Refuse the double on offer and lose the game at the current cube.", "drop"),
    ("beaver", "beaver", "Money play with beavers: take the double and redouble at once, keeping the cube.", "beaver"),
    ("resign", "resign [single|gammon|backgammon]", "Offer to resign a single game (default), a gammon or a backgammon.", "resign gammon"),
    ("accept", "accept", "Accept the resignation (or take the double) on offer.", "accept"),
    ("reject", "reject", "Reject the resignation (or drop the double) on offer.", "reject"),
    ("hint", "hint [N] [--json]", "The best N plays of the roll, the cube decision before the roll, or the right answer to a double or resignation.", "hint 5"),
    ("eval", "eval [--json]", "Chances and equities of the player on roll.", "eval --json"),
    ("set", "set board|matchid|gnubgid|xgid|dice|turn|player|jacoby|crawford|beavers|tutor|seed ...", "Set up positions and rules: set board POSITION-ID, set matchid MATCH-ID, set gnubgid POSITION-ID:MATCH-ID, set xgid XGID, set dice 31, set turn 0|1|NAME, set player 0|1|NAME|both human|bot [LEVEL], set player 0|1 name NAME, set jacoby|crawford|beavers on|off, set tutor on|off (a bad play or cube action is refused with the tutor's warning; entered again, it is kept), set seed N.", "set player 0 bot expert"),
    ("show", "show board|score|pipcount [--json]", "Show the board (with Position ID and Match ID), the score, or the pip counts.", "show pipcount"),
    ("help", "help [COMMAND]", "List the commands, or explain one.", "help set"),
    ("quit", "quit | exit", "Leave the session.", "quit"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_abbreviations() {
        assert_eq!(parse("new match 5"), Ok(Command::NewMatch(5)));
        assert_eq!(parse("NEW Session"), Ok(Command::NewSession));
        assert_eq!(parse("n g"), Ok(Command::NewGame));
        assert_eq!(parse("r"), Ok(Command::Roll));
        assert_eq!(parse("8/5 6/5"), Ok(Command::Move("8/5 6/5".into())));
        assert_eq!(
            parse("bar/22* 13/11"),
            Ok(Command::Move("bar/22* 13/11".into()))
        );
        assert_eq!(parse("move 13/11(2)"), Ok(Command::Move("13/11(2)".into())));
        assert_eq!(parse("m"), Ok(Command::Move(String::new())));
        assert_eq!(parse("pass"), Ok(Command::Drop));
        assert_eq!(parse("resign g"), Ok(Command::Resign(Resignation::Gammon)));
        assert_eq!(
            parse("resign 3"),
            Ok(Command::Resign(Resignation::Backgammon))
        );
        assert_eq!(parse("resign"), Ok(Command::Resign(Resignation::Single)));
        assert_eq!(
            parse("hint 3 --json"),
            Ok(Command::Hint {
                count: Some(3),
                json: true
            })
        );
        assert_eq!(
            parse("show pip"),
            Ok(Command::Show {
                what: ShowWhat::Pipcount,
                json: false
            })
        );
        assert_eq!(
            parse("set player 0 bot world class"),
            Ok(Command::SetPlayerKind {
                players: Some(PlayerRef::Index(Player::Zero)),
                kind: PlayerKind::Bot(Level::WorldClass)
            })
        );
        assert_eq!(
            parse("set player both human"),
            Ok(Command::SetPlayerKind {
                players: None,
                kind: PlayerKind::Human
            })
        );
        assert_eq!(
            parse("set player X name Alice"),
            Ok(Command::SetPlayerName {
                player: PlayerRef::Index(Player::One),
                name: "Alice".into()
            })
        );
        assert_eq!(
            parse("set dice 6-2"),
            Ok(Command::SetDice("62".parse().unwrap()))
        );
        assert_eq!(parse("set jacoby off"), Ok(Command::SetJacoby(false)));
        assert_eq!(parse("set tutor on"), Ok(Command::SetTutor(true)));
        assert_eq!(
            parse("set turn bob"),
            Ok(Command::SetTurn(PlayerRef::Name("bob".into())))
        );
        assert_eq!(parse("  # a comment"), Ok(Command::Nothing));
        assert_eq!(parse("help set"), Ok(Command::Help(Some("set".into()))));
    }

    #[test]
    fn bad_lines_say_why() {
        for (line, expect) in [
            ("frobnicate", "unknown command"),
            ("re", "ambiguous"),
            ("new match x", "match length"),
            ("new match 0", "match length"),
            ("new", "usage"),
            ("roll now", "no arguments"),
            ("resign everything", "unknown resignation"),
            ("set dice 71", "1 to 6"),
            ("set jacoby maybe", "on or off"),
            ("set player 0 bot godlike", "unknown level"),
            ("set nothing", "unknown setting"),
            ("show everything", "unknown thing"),
            ("hint 0", "number of moves"),
        ] {
            let e = parse(line).unwrap_err();
            assert!(e.0.contains(expect), "{line}: {e}");
        }
    }

    #[test]
    fn every_command_has_help() {
        for c in COMMANDS {
            assert!(HELP.iter().any(|h| h.0 == *c), "{c}");
        }
    }
}
