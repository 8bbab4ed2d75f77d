//! `cubeful-cli show <POSITION-ID>[:<MATCH-ID>]` or `cubeful-cli show --xgid <XGID>`

use anyhow::{bail, Context, Result};
use cubeful_engine::formats::ascii_board;
use cubeful_engine::formats::ids::xgid::Xgid;
use cubeful_engine::{gnubg_id, match_id, position_id, CubeOwner, Player, Position, Side};
use serde::Serialize;

#[derive(clap::Args)]
pub struct Args {
    /// GNU Backgammon Position ID, optionally followed by `:` and a Match ID. Without a Match ID
    /// the position is a money game with the cube centred and X (player 1) on roll.
    id: Option<String>,
    /// An eXtreme Gammon XGID instead of GNU Backgammon IDs.
    #[arg(long, conflicts_with = "id")]
    xgid: Option<String>,
    /// Names of player 0 (O, top) and player 1 (X, bottom), separated by a comma.
    #[arg(long, default_value = "O,X", value_name = "O-NAME,X-NAME")]
    names: String,
    /// Print the facts as JSON instead of the board.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct ShowJson {
    position_id: String,
    match_id: String,
    xgid: String,
    on_roll: &'static str,
    turn: &'static str,
    dice: Option<[u8; 2]>,
    cube: u32,
    cube_owner: &'static str,
    doubled: bool,
    match_length: u16,
    score: [u16; 2],
    crawford: bool,
    jacoby: bool,
    pips: [u32; 2],
    off: [u8; 2],
    bar: [u8; 2],
    board: String,
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::Zero => "O",
        Player::One => "X",
    }
}

pub fn run(args: &Args) -> Result<()> {
    let xgid = match (&args.id, &args.xgid) {
        (Some(id), None) => {
            let (position, state) = gnubg_id::decode(id).context("bad GNU Backgammon ID")?;
            Xgid::new(position, state)
        }
        (None, Some(x)) => Xgid::parse(x)
            .with_context(|| format!("bad XGID {}", cubeful_engine::formats::quote(x)))?,
        _ => bail!("give a Position ID (optionally with :MATCH-ID) or --xgid XGID"),
    };
    let (position, state) = (xgid.position, xgid.state);
    let names: Vec<&str> = args.names.splitn(2, ',').collect();
    let names = [names[0], names.get(1).copied().unwrap_or("X")];
    let board = ascii_board::draw(&position, &state, names);
    let xgid = xgid.to_string();
    // Facts per physical player (index 0 = O, 1 = X).
    let side_of = |p: Player| {
        if p == state.on_roll {
            Side::Player
        } else {
            Side::Opponent
        }
    };
    let per_player = |f: &dyn Fn(&Position, Side) -> u32| {
        [
            f(&position, side_of(Player::Zero)),
            f(&position, side_of(Player::One)),
        ]
    };
    let pips = per_player(&|p, s| p.pip_count(s));
    let off = per_player(&|p, s| u32::from(p.off(s))).map(|n| n as u8);
    let bar = per_player(&|p, s| u32::from(p.bar(s))).map(|n| n as u8);
    if args.json {
        let json = ShowJson {
            position_id: position_id::encode(&position),
            match_id: match_id::encode(&state),
            xgid,
            on_roll: player_name(state.on_roll),
            turn: player_name(state.turn),
            dice: state.dice.map(|d| [d.first(), d.second()]),
            cube: state.cube_value(),
            cube_owner: match state.cube_owner {
                CubeOwner::Centered => "centered",
                CubeOwner::Owned(p) => player_name(p),
            },
            doubled: state.doubled,
            match_length: state.match_length,
            score: state.score,
            crawford: state.crawford,
            jacoby: state.jacoby,
            pips,
            off,
            bar,
            board,
        };
        println!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(());
    }
    print!("{board}");
    println!(" XGID: {xgid}");
    println!(" Pip counts: O {}, X {}", pips[0], pips[1]);
    if off != [0, 0] {
        println!(" Borne off: O {}, X {}", off[0], off[1]);
    }
    if state.is_money() {
        println!(
            " Money game{}",
            if state.jacoby { ", Jacoby rule" } else { "" }
        );
    } else {
        println!(
            " {}-point match, score O {} - X {}{}",
            state.match_length,
            state.score[0],
            state.score[1],
            if state.crawford {
                ", Crawford game"
            } else if state.is_post_crawford() {
                ", post-Crawford"
            } else {
                ""
            }
        );
    }
    if let Some(result) = position.result() {
        let winner = match result.winner {
            Side::Player => state.on_roll,
            Side::Opponent => state.on_roll.other(),
        };
        println!(
            " Game over: {} wins {} point(s) at cube 1",
            player_name(winner),
            result.kind.points()
        );
    }
    Ok(())
}
