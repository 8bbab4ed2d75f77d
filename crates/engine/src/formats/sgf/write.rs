//! Writing a [`MatchRecord`] as GNU Backgammon's SGF; see the module documentation of
//! [`super`] for the dialect.

use super::analysis as values;
use super::letters::move_letters;
use super::read::{name, text};
use super::tree::{self, Collection, GameTree, Node};
use crate::game::match_state::{CubeOwner, Player};
use crate::game::record::analysis::{ActionAnalysis, Luck, Skill};
use crate::game::record::{Entry, GameRecord, MatchRecord, RecordAction, Setup, Variant};
use crate::game::MAX_CUBE_LOG2;
use crate::rules::dice::Dice;
use crate::rules::position::Side;

/// What written files name as the program that wrote them (`AP`).
pub const APPLICATION: &str = concat!("Cubeful:", env!("CARGO_PKG_VERSION"));

/// Writes a match record as GNU Backgammon's SGF: one game tree per game, each node on a line
/// of its own, as GNU Backgammon lays its files out. A record without games gives the empty
/// text.
///
/// Resignation entries are not written (the result `RE[..R]` says the game was resigned), nor
/// are rejected resignations and the transcriber, which the format cannot hold. Analysis is written where the
/// format has a place for it: the cube decision, candidate plays, luck and skill marks of a
/// checker play; the cube decision and mark of a cube action; the luck of a roll without a move.
pub fn write(record: &MatchRecord) -> String {
    let trees = record
        .games
        .iter()
        .enumerate()
        .map(|(index, game)| game_tree(record, index, game))
        .collect();
    tree::write(&Collection::new(trees))
}

fn game_tree(record: &MatchRecord, index: usize, game: &GameRecord) -> GameTree {
    let mut nodes = vec![root(record, index, game)];
    for entry in &game.entries {
        entry_nodes(entry, &mut nodes);
    }
    GameTree::new(nodes)
}

fn root(record: &MatchRecord, index: usize, game: &GameRecord) -> Node {
    let info = &record.info;
    let mut node = Node::default();
    let one = |node: &mut Node, ident: &str, value: String| node.push(ident, vec![value]);
    one(&mut node, "FF", "4".into());
    one(&mut node, "GM", "6".into());
    one(&mut node, "CA", "UTF-8".into());
    one(&mut node, "AP", APPLICATION.into());
    node.push(
        "MI",
        vec![
            format!("length:{}", info.rules.match_length),
            format!("game:{index}"),
            format!("ws:{}", game.score[0]),
            format!("bs:{}", game.score[1]),
        ],
    );
    one(&mut node, "PW", name(&info.players[0]));
    one(&mut node, "PB", name(&info.players[1]));
    if index == 0 {
        let date = info.date.as_deref().and_then(super::read::parse_date);
        for (ident, value) in [
            ("WR", info.ratings[0].as_deref()),
            ("BR", info.ratings[1].as_deref()),
            ("DT", date.as_deref()),
            ("EV", info.event.as_deref()),
            ("RO", info.round.as_deref()),
            ("PC", info.place.as_deref()),
            ("AN", info.annotator.as_deref()),
            ("GC", info.comment.as_deref()),
        ] {
            if let Some(value) = value.map(text).filter(|v| !v.is_empty()) {
                one(&mut node, ident, value);
            }
        }
    }
    let money = info.rules.match_length == 0;
    let mut rules = Vec::new();
    if !info.cube_used {
        rules.push("NoCube");
    }
    if !money && info.rules.crawford {
        rules.push("Crawford");
    }
    if game.crawford {
        rules.push("CrawfordGame");
    }
    if money && info.rules.jacoby {
        rules.push("Jacoby");
    }
    match info.variant {
        Variant::Standard => {}
        Variant::Nackgammon => rules.push("Nackgammon"),
        Variant::Hypergammon(1) => rules.push("Hypergammon1"),
        Variant::Hypergammon(2) => rules.push("Hypergammon2"),
        Variant::Hypergammon(3) => rules.push("Hypergammon3"),
        Variant::Hypergammon(_) => {}
    }
    if !rules.is_empty() {
        one(&mut node, "RU", rules.join(":"));
    }
    if (1..=MAX_CUBE_LOG2).contains(&game.auto_doubles) {
        one(&mut node, "CV", (1u32 << game.auto_doubles).to_string());
    }
    if let Some(result) = &game.result {
        one(
            &mut node,
            "RE",
            format!(
                "{}+{}{}",
                colour(result.winner),
                result.points.max(1),
                if result.resigned { "R" } else { "" }
            ),
        );
    }
    if let Some(statistics) = game.stored_statistics.as_ref().filter(|s| !s.is_empty()) {
        node.push("GS", statistics.clone());
    }
    if let Some(comment) = game.comment.as_deref().map(text).filter(|c| !c.is_empty()) {
        one(&mut node, "C", comment);
    }
    node
}

fn entry_nodes(entry: &Entry, nodes: &mut Vec<Node>) {
    let analysis = entry.analysis.as_deref();
    let mut node = Node::default();
    match &entry.action {
        RecordAction::Move { player, dice, mv } => {
            let value = format!("{}{}", dice_text(*dice), move_letters(*player, mv));
            node.push(colour(*player).to_string(), vec![value]);
            if let Some(a) = analysis {
                push_cube_analysis(&mut node, a);
                if let Some(moves) = a.moves.as_ref().filter(|m| !m.candidates.is_empty()) {
                    let (values, marks) = values::format_move_analysis(*player, moves);
                    node.push("A", values);
                    node.push("MR", vec![marks]);
                }
                push_luck(&mut node, *player, a);
                push_skill(&mut node, a.skill, "BM", "DO");
                push_skill(&mut node, a.cube_skill, "BC", "DC");
            }
        }
        RecordAction::Double { player } | RecordAction::Beaver { player } => {
            cube_node(&mut node, *player, "double", analysis)
        }
        RecordAction::Take { player } => cube_node(&mut node, *player, "take", analysis),
        RecordAction::Drop { player } => cube_node(&mut node, *player, "drop", analysis),
        RecordAction::Roll { player, dice } => {
            node.push("PL", vec![colour(*player).to_string()]);
            node.push("DI", vec![dice_text(*dice)]);
            if let Some(a) = analysis {
                push_luck(&mut node, *player, a);
            }
        }
        RecordAction::SetUp(setup) => {
            setup_nodes(setup, &mut node, nodes, entry.comment.as_deref());
            return;
        }
        RecordAction::Resign { .. }
        | RecordAction::AcceptResignation { .. }
        | RecordAction::RejectResignation { .. } => return,
    }
    push_comment(&mut node, entry.comment.as_deref());
    nodes.push(node);
}

fn cube_node(node: &mut Node, player: Player, what: &str, analysis: Option<&ActionAnalysis>) {
    node.push(colour(player).to_string(), vec![what.to_owned()]);
    if let Some(a) = analysis {
        push_cube_analysis(node, a);
        push_skill(node, a.skill, "BM", "DO");
    }
}

/// A set-up as GNU Backgammon's `save position` writes it: the board (with the player on roll),
/// the cube value, the cube owner and, if set, the dice.
fn setup_nodes(setup: &Setup, first: &mut Node, nodes: &mut Vec<Node>, comment: Option<&str>) {
    let on_roll = setup.on_roll;
    let mut sides = [[0u8; 25]; 2];
    sides[on_roll.index()] = setup.position.side(Side::Player);
    sides[on_roll.other().index()] = setup.position.side(Side::Opponent);
    first.push("PL", vec![colour(on_roll).to_string()]);
    first.push("AE", vec!["a:y".to_owned()]);
    for (player, ident) in [(Player::Zero, "AW"), (Player::One, "AB")] {
        let mut letters = Vec::new();
        for (index, &count) in sides[player.index()].iter().enumerate() {
            // Index 0..=23 is the player's point index + 1, 24 his bar.
            let point = if index == 24 { 25 } else { index as u8 + 1 };
            let letter = super::letters::point_letter(player, point).to_string();
            letters.extend(std::iter::repeat_n(letter, usize::from(count)));
        }
        if !letters.is_empty() {
            first.push(ident, letters);
        }
    }
    push_comment(first, comment);
    nodes.push(std::mem::take(first));
    let cube = 1u32 << setup.cube_log2.min(MAX_CUBE_LOG2);
    nodes.push(Node::new(vec![super::tree::Property::single(
        "CV",
        cube.to_string(),
    )]));
    let owner = match setup.cube_owner {
        CubeOwner::Centered => "c",
        CubeOwner::Owned(Player::Zero) => "w",
        CubeOwner::Owned(Player::One) => "b",
    };
    nodes.push(Node::new(vec![super::tree::Property::single("CP", owner)]));
    if let Some(dice) = setup.dice {
        let mut node = Node::default();
        node.push("PL", vec![colour(on_roll).to_string()]);
        node.push("DI", vec![dice_text(dice)]);
        nodes.push(node);
    }
}

fn push_cube_analysis(node: &mut Node, analysis: &ActionAnalysis) {
    if let Some(cube) = &analysis.cube {
        node.push("DA", vec![values::format_cube_analysis(cube)]);
        if analysis.cube_rollout_mark {
            node.push("CR", vec![String::new()]);
        }
    }
}

/// `LU` and the luck mark, written from Black's side: lucky for the roller is good for him.
fn push_luck(node: &mut Node, player: Player, analysis: &ActionAnalysis) {
    if let Some(luck) = analysis.luck {
        node.push("LU", vec![values::format_luck(luck)]);
    }
    let (good_for, strength) = match analysis.luck_mark {
        Luck::None => return,
        Luck::VeryLucky => (player, "2"),
        Luck::Lucky => (player, "1"),
        Luck::Unlucky => (player.other(), "1"),
        Luck::VeryUnlucky => (player.other(), "2"),
    };
    node.push(format!("G{}", colour(good_for)), vec![strength.to_owned()]);
}

fn push_skill(node: &mut Node, skill: Skill, bad: &str, doubtful: &str) {
    match skill {
        Skill::None => {}
        Skill::Doubtful => node.push(doubtful, vec![String::new()]),
        Skill::Bad => node.push(bad, vec!["1".to_owned()]),
        Skill::VeryBad => node.push(bad, vec!["2".to_owned()]),
    }
}

fn push_comment(node: &mut Node, comment: Option<&str>) {
    if let Some(comment) = comment.map(text).filter(|c| !c.is_empty()) {
        node.push("C", vec![comment]);
    }
}

fn colour(player: Player) -> char {
    match player {
        Player::Zero => 'W',
        Player::One => 'B',
    }
}

fn dice_text(dice: Dice) -> String {
    format!("{}{}", dice.first(), dice.second())
}
