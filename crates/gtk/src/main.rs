//! `cubeful`: the desktop application. See the library's documentation for its structure.

use std::path::PathBuf;
use std::process::ExitCode;

use cubeful_gtk::application::{CubefulApplication, Options};
use cubeful_gtk::{config, i18n};
use gtk::prelude::*;

const USAGE: &str = "Usage: cubeful [--debug-state FILE] [--seed N] [MATCH-FILE]

Plays backgammon matches against the Cubeful engine. MATCH-FILE (SGF or .mat) is opened.

  --debug-state FILE  write the game state as JSON to FILE after every change (for tests)
  --seed N            seed of the dice, for reproducible games
  --help              show this text
  --version           show the version";

/// Reads the command line; `Err` holds the text to print and the exit code.
fn parse_args(args: &[String]) -> Result<Options, (String, u8)> {
    let mut options = Options::default();
    let mut it = args.iter().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--help" | "-h" => return Err((USAGE.to_string(), 0)),
            "--version" => return Err((format!("cubeful {}", config::VERSION), 0)),
            "--debug-state" => match it.next() {
                Some(path) => options.debug_state = Some(PathBuf::from(path)),
                None => return Err(("--debug-state needs a file name".into(), 2)),
            },
            "--seed" => match it.next().map(|s| s.parse::<u64>()) {
                Some(Ok(seed)) => options.seed = Some(seed),
                _ => return Err(("--seed needs a whole number".into(), 2)),
            },
            other if !other.starts_with('-') || other == "-" => {
                options.files.push(PathBuf::from(other))
            }
            other => return Err((format!("unknown option {other:?}\n\n{USAGE}"), 2)),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    i18n::init(&config::locale_dir());
    let args: Vec<String> = std::env::args().collect();
    let options = match parse_args(&args) {
        Ok(options) => options,
        Err((text, code)) => {
            if code == 0 {
                println!("{text}");
            } else {
                eprintln!("cubeful: {text}");
            }
            return ExitCode::from(code);
        }
    };
    gtk::gio::resources_register_include!("cubeful.gresource")
        .expect("the resources compiled into the program are valid");
    gtk::glib::set_application_name("Cubeful");
    // Files go on to GApplication, which hands them to `open`.
    let mut gtk_args: Vec<String> = args[..1].to_vec();
    gtk_args.extend(
        options
            .files
            .iter()
            .map(|f| f.to_string_lossy().into_owned()),
    );
    let app = CubefulApplication::new(options);
    let status = app.run_with_args(&gtk_args);
    status.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        std::iter::once("cubeful")
            .chain(list.iter().copied())
            .map(String::from)
            .collect()
    }

    #[test]
    fn command_line() {
        assert_eq!(parse_args(&args(&[])), Ok(Options::default()));
        let o = parse_args(&args(&["--debug-state", "/tmp/s.json", "--seed", "42"])).unwrap();
        assert_eq!(o.debug_state, Some(PathBuf::from("/tmp/s.json")));
        assert_eq!(o.seed, Some(42));
        assert_eq!(parse_args(&args(&["--help"])).unwrap_err().1, 0);
        assert_eq!(parse_args(&args(&["--seed", "x"])).unwrap_err().1, 2);
        assert_eq!(parse_args(&args(&["--debug-state"])).unwrap_err().1, 2);
        assert_eq!(parse_args(&args(&["--bogus"])).unwrap_err().1, 2);
        let o = parse_args(&args(&["--seed", "1", "m.sgf"])).unwrap();
        assert_eq!(o.files, [PathBuf::from("m.sgf")]);
    }
}
