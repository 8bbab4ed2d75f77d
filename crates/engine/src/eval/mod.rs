//! Static (0-ply) evaluation: the five cubeless probabilities of a position for the player on roll.
//!
//! A position is judged by its class ([`crate::eval::class`]): finished games exactly, bearoffs by
//! a bearoff database when one is plugged in ([`BearoffOracle`]), everything else by the net of its
//! class. Net outputs pass the sanity rules of docs/ENGINE.md §Sanity rules — hard bounds that
//! follow from the pips and crossings left — so they are always consistent: gammons never exceed
//! wins, backgammons never exceed gammons.

pub mod bearoff;
pub mod class;
pub mod inputs;
pub mod nn;
pub mod prune;
pub mod pubeval;

use std::path::Path;
use std::sync::Arc;

use crate::eval::class::{classify, PositionClass};
use crate::eval::inputs::{input_count, CONTACT_INPUTS, INPUT_VERSION, MAX_INPUTS, RACE_INPUTS};
use crate::eval::nn::{Net, NetClass, NetFileError, OUTPUTS};
use crate::eval::prune::PruneNets;
use crate::rules::dice::Dice;
use crate::rules::movegen::{LegalMove, MoveGenerator};
use crate::rules::position::{Position, Side, WinKind, BAR, OFF};

/// Cubeless chances of the player on roll. Gammon chances include backgammons (cumulative), as
/// GNU Backgammon reports them.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Probabilities {
    pub win: f32,
    pub win_gammon: f32,
    pub win_backgammon: f32,
    pub lose_gammon: f32,
    pub lose_backgammon: f32,
}

impl Probabilities {
    /// From net outputs in the order win, win gammon, win backgammon, lose gammon, lose backgammon.
    pub fn from_array(a: [f32; OUTPUTS]) -> Probabilities {
        Probabilities {
            win: a[0],
            win_gammon: a[1],
            win_backgammon: a[2],
            lose_gammon: a[3],
            lose_backgammon: a[4],
        }
    }

    /// The five values in GNU Backgammon's order.
    pub fn to_array(self) -> [f32; OUTPUTS] {
        [
            self.win,
            self.win_gammon,
            self.win_backgammon,
            self.lose_gammon,
            self.lose_backgammon,
        ]
    }

    /// Cubeless money equity. The gammon chances are cumulative, so each gammon and each
    /// backgammon adds one more point: `2·win − 1 + (wg − lg) + (wbg − lbg)`.
    pub fn equity(&self) -> f32 {
        2.0 * self.win - 1.0 + self.win_gammon - self.lose_gammon + self.win_backgammon
            - self.lose_backgammon
    }

    /// The same chances seen from the other player.
    pub fn invert(&self) -> Probabilities {
        Probabilities {
            win: 1.0 - self.win,
            win_gammon: self.lose_gammon,
            win_backgammon: self.lose_backgammon,
            lose_gammon: self.win_gammon,
            lose_backgammon: self.win_backgammon,
        }
    }

    /// The exact chances of a finished game, from the side that is `winner`'s opponent or not.
    pub fn of_result(winner: Side, kind: WinKind) -> Probabilities {
        let gammon = if kind >= WinKind::Gammon { 1.0 } else { 0.0 };
        let backgammon = if kind >= WinKind::Backgammon {
            1.0
        } else {
            0.0
        };
        let won = Probabilities {
            win: 1.0,
            win_gammon: gammon,
            win_backgammon: backgammon,
            lose_gammon: 0.0,
            lose_backgammon: 0.0,
        };
        match winner {
            Side::Player => won,
            Side::Opponent => won.invert(),
        }
    }

    /// Forces the ordering constraints: every value in [0, 1], gammons ≤ wins (and losses),
    /// backgammons ≤ gammons.
    pub fn make_consistent(&mut self) {
        let clamp = |v: f32| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        self.win = clamp(self.win);
        self.win_gammon = clamp(self.win_gammon).min(self.win);
        self.lose_gammon = clamp(self.lose_gammon).min(1.0 - self.win);
        self.win_backgammon = clamp(self.win_backgammon).min(self.win_gammon);
        self.lose_backgammon = clamp(self.lose_backgammon).min(self.lose_gammon);
    }
}

/// Exact knowledge of bearoff positions, plugged into the evaluator (the bearoff databases).
pub trait BearoffOracle: Send + Sync {
    /// The exact cubeless chances of `position` for the player on roll, if known.
    fn probabilities(&self, position: &Position) -> Option<Probabilities>;

    /// In a race (no contact), `winner`'s chance of a backgammon, if known: the race net's own
    /// estimate of it is replaced by this one.
    fn backgammon(&self, _position: &Position, _winner: Side) -> Option<f32> {
        None
    }
}

/// The three nets of the evaluator, and the pruning nets the search pre-selects plays with.
#[derive(Clone, Debug)]
pub struct Nets {
    pub contact: Net,
    pub crashed: Net,
    pub race: Net,
    /// The pruning nets (docs/ENGINE.md §Pruning nets); without them the search scores every
    /// play with the full nets.
    pub prune: Option<PruneNets>,
}

/// Default nets, trained by Cubeful's own pipeline (docs/TRAINING.md), compiled into the binary.
const EMBEDDED: [(&str, &[u8]); 3] = [
    (
        "contact.net",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/nets/contact.net"
        )),
    ),
    (
        "crashed.net",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/nets/crashed.net"
        )),
    ),
    (
        "race.net",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/nets/race.net"
        )),
    ),
];

impl Nets {
    /// The nets compiled into the program (from `data/nets/`).
    pub fn embedded() -> Nets {
        let load = |(name, bytes): (&str, &[u8]), class: NetClass| {
            let net = Net::from_bytes(bytes)
                .unwrap_or_else(|e| panic!("embedded net {name} is broken: {e}"));
            net.check(Path::new(name), class, input_count(class), INPUT_VERSION)
                .unwrap_or_else(|e| panic!("embedded net {name}: {e}"));
            net
        };
        Nets {
            contact: load(EMBEDDED[0], NetClass::Contact),
            crashed: load(EMBEDDED[1], NetClass::Crashed),
            race: load(EMBEDDED[2], NetClass::Race),
            prune: Some(PruneNets::embedded()),
        }
    }

    /// Loads `contact.net`, `crashed.net` and `race.net` from `dir`, and the pruning nets
    /// (`prune-contact.net`, …) when the folder has them ([`PruneNets::load_dir`]).
    pub fn load_dir(dir: &Path) -> Result<Nets, NetFileError> {
        let load = |class: NetClass| {
            let path = dir.join(format!("{}.net", class.name()));
            Net::load(&path, class, input_count(class), INPUT_VERSION)
        };
        Ok(Nets {
            contact: load(NetClass::Contact)?,
            crashed: load(NetClass::Crashed)?,
            race: load(NetClass::Race)?,
            prune: PruneNets::load_dir(dir)?,
        })
    }

    /// Saves the three nets into `dir` (atomically, file by file), and the pruning nets if any.
    pub fn save_dir(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for net in [&self.contact, &self.crashed, &self.race] {
            net.save(&dir.join(format!("{}.net", net.class().name())))?;
        }
        if let Some(prune) = &self.prune {
            prune.save_dir(dir)?;
        }
        Ok(())
    }

    /// The net for a class.
    pub fn net(&self, class: NetClass) -> &Net {
        match class {
            NetClass::Contact => &self.contact,
            NetClass::Crashed => &self.crashed,
            NetClass::Race => &self.race,
        }
    }

    /// The net for a class, mutable (training).
    pub fn net_mut(&mut self, class: NetClass) -> &mut Net {
        match class {
            NetClass::Contact => &mut self.contact,
            NetClass::Crashed => &mut self.crashed,
            NetClass::Race => &mut self.race,
        }
    }
}

/// Which net judges a class of positions (`None` for finished games).
pub fn net_class(class: PositionClass) -> Option<NetClass> {
    match class {
        PositionClass::Over => None,
        PositionClass::Bearoff | PositionClass::Race => Some(NetClass::Race),
        PositionClass::Crashed => Some(NetClass::Crashed),
        PositionClass::Contact => Some(NetClass::Contact),
    }
}

/// Computes the inputs of `class`'s net for `position` into `buf` (at least 250 values) and returns
/// the filled part.
pub fn encode_inputs<'b>(class: NetClass, position: &Position, buf: &'b mut [f32]) -> &'b [f32] {
    match class {
        NetClass::Contact => {
            let out: &mut [f32; CONTACT_INPUTS] = (&mut buf[..CONTACT_INPUTS])
                .try_into()
                .expect("buffer of 250");
            inputs::contact_inputs(position, out);
            &buf[..CONTACT_INPUTS]
        }
        NetClass::Crashed => {
            let out: &mut [f32; CONTACT_INPUTS] = (&mut buf[..CONTACT_INPUTS])
                .try_into()
                .expect("buffer of 250");
            inputs::crashed_inputs(position, out);
            &buf[..CONTACT_INPUTS]
        }
        NetClass::Race => {
            let out: &mut [f32; RACE_INPUTS] =
                (&mut buf[..RACE_INPUTS]).try_into().expect("buffer of 214");
            inputs::race_inputs(position, out);
            &buf[..RACE_INPUTS]
        }
    }
}

const CACHE_BITS: u32 = 16;

#[derive(Clone, Copy)]
struct CacheEntry {
    position: Position,
    probabilities: Probabilities,
}

/// A 0-ply evaluator. Cheap to create per thread; the nets are shared.
pub struct Evaluator {
    nets: Arc<Nets>,
    bearoff: Option<Arc<dyn BearoffOracle>>,
    inputs: Vec<f32>,
    hidden: Vec<f32>,
    cache: Option<Vec<Option<CacheEntry>>>,
    generator: MoveGenerator,
    scores: Vec<Probabilities>,
    prune_hidden: Vec<f32>,
}

impl Evaluator {
    /// An evaluator with the given nets, with an evaluation cache.
    pub fn new(nets: Arc<Nets>) -> Evaluator {
        let hidden = [&nets.contact, &nets.crashed, &nets.race]
            .iter()
            .map(|n| n.scratch_len())
            .max()
            .unwrap_or(0);
        let prune_hidden = vec![0.0; nets.prune.as_ref().map_or(0, PruneNets::max_hidden)];
        Evaluator {
            prune_hidden,
            nets,
            bearoff: None,
            inputs: vec![0.0; MAX_INPUTS],
            hidden: vec![0.0; hidden],
            cache: Some(vec![None; 1 << CACHE_BITS]),
            generator: MoveGenerator::new(),
            scores: Vec::with_capacity(64),
        }
    }

    /// True when the nets include pruning nets ([`Evaluator::evaluate_prune`] can answer).
    pub fn has_prune_nets(&self) -> bool {
        self.nets.prune.is_some()
    }

    /// The pruning nets' rough chances of `position` for the player on roll, for ordering
    /// candidate plays only (docs/ENGINE.md §Pruning nets): `None` without pruning nets, for a
    /// finished game, or for a bearoff position the bearoff database knows (ask
    /// [`Evaluator::evaluate`] then). Made consistent, not cached, no sanity rules.
    pub fn evaluate_prune(&mut self, position: &Position) -> Option<Probabilities> {
        let prune = self.nets.prune.as_ref()?;
        let class = classify(position);
        if class == PositionClass::Over
            || (class == PositionClass::Bearoff && self.bearoff.is_some())
        {
            return None;
        }
        let out = prune.forward(net_class(class)?, position, &mut self.prune_hidden);
        let mut p = Probabilities::from_array(out);
        p.make_consistent();
        Some(p)
    }

    /// Turns the evaluation cache on or off (benchmarks measure without it).
    pub fn set_cache(&mut self, on: bool) {
        self.cache = on.then(|| vec![None; 1 << CACHE_BITS]);
    }

    /// Plugs in exact bearoff knowledge.
    pub fn set_bearoff(&mut self, oracle: Option<Arc<dyn BearoffOracle>>) {
        self.bearoff = oracle;
    }

    /// The nets in use.
    pub fn nets(&self) -> &Arc<Nets> {
        &self.nets
    }

    /// The 0-ply chances of `position` for the player on roll (before the roll).
    pub fn evaluate(&mut self, position: &Position) -> Probabilities {
        let class = classify(position);
        if class == PositionClass::Over {
            let result = position.result().expect("an Over position has a result");
            return Probabilities::of_result(result.winner, result.kind);
        }
        let slot = self.cache.as_ref().map(|_| cache_slot(position));
        if let (Some(cache), Some(slot)) = (&self.cache, slot) {
            if let Some(entry) = cache[slot] {
                if entry.position == *position {
                    return entry.probabilities;
                }
            }
        }
        let mut p = None;
        if class == PositionClass::Bearoff {
            if let Some(oracle) = &self.bearoff {
                p = oracle.probabilities(position);
            }
        }
        let p = match p {
            Some(p) => p,
            None => {
                let net_class = net_class(class).expect("not Over");
                let net = self.nets.net(net_class);
                let x = encode_inputs(net_class, position, &mut self.inputs);
                let mut out = [0.0f32; OUTPUTS];
                net.forward(x, &mut self.hidden, &mut out);
                let mut p = Probabilities::from_array(out);
                if net_class == NetClass::Race {
                    if let Some(oracle) = &self.bearoff {
                        race_backgammons(oracle.as_ref(), position, &mut p);
                    }
                }
                sanity_check(position, &mut p);
                p
            }
        };
        if let (Some(cache), Some(slot)) = (&mut self.cache, slot) {
            cache[slot] = Some(CacheEntry {
                position: *position,
                probabilities: p,
            });
        }
        p
    }

    /// The chances of the mover after playing to `after` (a position still seen from the mover,
    /// as move generation returns it): the opponent is on roll there.
    pub fn evaluate_after_move(&mut self, after: &Position) -> Probabilities {
        if let Some(result) = after.result() {
            return Probabilities::of_result(result.winner, result.kind);
        }
        self.evaluate(&after.swap()).invert()
    }

    /// The chances of the mover after each of `moves` (a batch of candidate plays), in order,
    /// written into `out` (cleared first). No allocation once `out` has grown.
    pub fn evaluate_moves(&mut self, moves: &[LegalMove], out: &mut Vec<Probabilities>) {
        out.clear();
        out.extend(moves.iter().map(|m| self.evaluate_after_move(&m.position)));
    }

    /// The best play of `dice` at 0-ply (highest cubeless equity after the move), with its chances
    /// for the mover. All candidates are evaluated as one batch; ties keep the first.
    pub fn best_move(&mut self, position: &Position, dice: Dice) -> (LegalMove, Probabilities) {
        let mut generator = std::mem::take(&mut self.generator);
        let mut scores = std::mem::take(&mut self.scores);
        let moves = generator.generate(position, dice);
        self.evaluate_moves(moves, &mut scores);
        let mut best = 0;
        for (i, p) in scores.iter().enumerate() {
            if p.equity() > scores[best].equity() {
                best = i;
            }
        }
        let result = (moves[best], scores[best]);
        self.generator = generator;
        self.scores = scores;
        result
    }

    /// Every legal play of `dice` with its 0-ply chances for the mover, best first.
    pub fn rank_moves(
        &mut self,
        position: &Position,
        dice: Dice,
    ) -> Vec<(LegalMove, Probabilities)> {
        let mut generator = std::mem::take(&mut self.generator);
        let mut scores = Vec::new();
        let moves = generator.generate(position, dice);
        self.evaluate_moves(moves, &mut scores);
        let mut ranked: Vec<(LegalMove, Probabilities)> =
            moves.iter().copied().zip(scores).collect();
        self.generator = generator;
        // A stable sort keeps generation order among equal equities.
        ranked.sort_by(|a, b| b.1.equity().total_cmp(&a.1.equity()));
        ranked
    }
}

fn cache_slot(position: &Position) -> usize {
    (position.fingerprint() >> (64 - CACHE_BITS)) as usize
}

/// The backgammon chances of a race from `oracle` where it knows them (GNU Backgammon does the
/// same after its race net): a side whose opponent still has every checker, some of them in the
/// side's home board, wins a backgammon by bearing off before they get out. A gammon chance below
/// the backgammon chance is raised to it.
fn race_backgammons(oracle: &dyn BearoffOracle, position: &Position, p: &mut Probabilities) {
    let b = position.board();
    // The player's home board is points 1–6; the opponent's is 19–24.
    let in_player_home = b[1..=6].iter().any(|&c| c < 0);
    let in_opponent_home = b[19..=24].iter().any(|&c| c > 0);
    if in_player_home && position.off(Side::Opponent) == 0 {
        if let Some(bg) = oracle.backgammon(position, Side::Player) {
            p.win_backgammon = bg;
            p.win_gammon = p.win_gammon.max(bg);
        }
    }
    if in_opponent_home && position.off(Side::Player) == 0 {
        if let Some(bg) = oracle.backgammon(position, Side::Opponent) {
            p.lose_backgammon = bg;
            p.lose_gammon = p.lose_gammon.max(bg);
        }
    }
}

/// Facts about one side used by the sanity rules.
struct SideFacts {
    /// Highest occupied index in the side's numbering (bar = 24).
    back: i32,
    /// Checkers not borne off.
    total: u32,
    /// Quadrant crossings left, bearing off included.
    cross: u32,
    /// Crossings needed to bring everything home, plus one to bear off the first checker.
    gammon_cross: u32,
}

/// The facts of `side`, read straight from the board (this runs for every position the nets
/// judge): the checkers of each quadrant of its own numbering (points 1–6, 7–12, 13–18, 19–24,
/// then the bar) and its farthest-back checker ([`Position::back_index`]).
fn side_facts(position: &Position, side: Side) -> SideFacts {
    let b = position.board();
    let mine = |c: i8| u32::from(c.max(0).unsigned_abs());
    let theirs = |c: i8| u32::from(c.min(0).unsigned_abs());
    let quadrants = match side {
        Side::Player => {
            let sum = |from: usize| b[from..from + 6].iter().map(|&c| mine(c)).sum::<u32>();
            [sum(1), sum(7), sum(13), sum(19), mine(b[BAR])]
        }
        Side::Opponent => {
            // The opponent's point k is the board's point 25 − k.
            let sum = |to: usize| b[to - 5..=to].iter().map(|&c| theirs(c)).sum::<u32>();
            [sum(24), sum(18), sum(12), sum(6), theirs(b[OFF])]
        }
    };
    let mut facts = SideFacts {
        back: position.back_index(side).map_or(-1, |i| i as i32),
        total: 0,
        cross: 0,
        gammon_cross: 1,
    };
    for (q, &n) in quadrants.iter().enumerate() {
        facts.total += n;
        facts.cross += n * (q as u32 + 1);
        facts.gammon_cross += n * q as u32;
    }
    facts
}

/// The hard rules of docs/ENGINE.md §Sanity rules applied to a net's output for `position`.
pub fn sanity_check(position: &Position, p: &mut Probabilities) {
    let opp = side_facts(position, Side::Opponent);
    let me = side_facts(position, Side::Player);
    let contact = opp.back + me.back >= 24;
    // A bound on the turns each side needs to finish without contact: two turns per crossing
    // left, the bound GNU Backgammon uses when a side is not inside its one-sided bearoff
    // database (docs/ENGINE.md §Sanity rules).
    let max_turns = |f: &SideFacts| (2 * f.cross).max(1);
    let (max_me, max_opp) = (max_turns(&me), max_turns(&opp));
    if !contact && opp.cross > 4 * (max_me - 1) {
        p.win = 1.0;
    }
    if opp.total < 15 {
        p.win_gammon = 0.0;
        p.win_backgammon = 0.0;
    } else if !contact {
        if me.cross > 8 * opp.gammon_cross {
            p.win_gammon = 0.0;
        } else if opp.gammon_cross > 4 * (max_me - 1) {
            p.win_gammon = 1.0;
        }
        if opp.back < 18 {
            p.win_backgammon = 0.0;
        }
    }
    if !contact && me.cross > 4 * max_opp {
        p.win = 0.0;
    }
    if me.total < 15 {
        p.lose_gammon = 0.0;
        p.lose_backgammon = 0.0;
    } else if !contact {
        if opp.cross + 4 > 8 * me.gammon_cross {
            p.lose_gammon = 0.0;
        } else if me.gammon_cross > 4 * max_opp {
            p.lose_gammon = 1.0;
        }
        if me.back < 18 {
            p.lose_backgammon = 0.0;
        }
    }
    p.make_consistent();
    if contact {
        for v in [
            &mut p.win_gammon,
            &mut p.win_backgammon,
            &mut p.lose_gammon,
            &mut p.lose_backgammon,
        ] {
            if *v < 1e-4 {
                *v = 0.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appendix_equity_example() {
        let p = Probabilities {
            win: 0.454,
            win_gammon: 0.103,
            win_backgammon: 0.001,
            lose_gammon: 0.106,
            lose_backgammon: 0.003,
        };
        assert!((p.equity() - (-0.097)).abs() < 1e-6);
        assert!((p.invert().equity() - 0.097).abs() < 1e-6);
        assert_eq!(p.invert().invert(), p);
    }

    #[test]
    fn consistency() {
        let mut p = Probabilities {
            win: 0.3,
            win_gammon: 0.5,
            win_backgammon: 0.7,
            lose_gammon: 0.9,
            lose_backgammon: 1.5,
        };
        p.make_consistent();
        assert_eq!(p.win_gammon, 0.3);
        assert_eq!(p.win_backgammon, 0.3);
        assert!((p.lose_gammon - 0.7).abs() < 1e-6);
        assert!((p.lose_backgammon - 0.7).abs() < 1e-6);
    }

    #[test]
    fn results_are_exact() {
        let p = Probabilities::of_result(Side::Opponent, WinKind::Gammon);
        assert_eq!(p.win, 0.0);
        assert_eq!(p.lose_gammon, 1.0);
        assert_eq!(p.lose_backgammon, 0.0);
        assert_eq!(p.equity(), -2.0);
    }

    #[test]
    fn sanity_no_gammon_once_borne_off() {
        // Race: both have borne off checkers, so no gammons either way.
        let mut a = [0u8; 25];
        a[0] = 5;
        a[7] = 2;
        let mut b = [0u8; 25];
        b[2] = 7;
        let pos = Position::from_sides(&a, &b).unwrap();
        let mut p = Probabilities {
            win: 0.6,
            win_gammon: 0.2,
            win_backgammon: 0.1,
            lose_gammon: 0.2,
            lose_backgammon: 0.1,
        };
        sanity_check(&pos, &mut p);
        assert_eq!(p.win_gammon, 0.0);
        assert_eq!(p.lose_gammon, 0.0);
        assert_eq!(p.win, 0.6);
    }
}

#[cfg(test)]
mod net_tests {
    use super::*;
    use crate::rules::movegen::legal_moves;
    use cubeful_testkit::ScratchDir;

    /// Random positions from random games, from both sides.
    fn sample_positions(n: usize) -> Vec<Position> {
        let mut seed = 99u64;
        let mut next = |m: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % m
        };
        let mut out = Vec::new();
        while out.len() < n {
            let mut p = Position::starting();
            loop {
                let d = Dice::new(next(6) as u8 + 1, next(6) as u8 + 1).unwrap();
                let moves = legal_moves(&p, d);
                let q = moves[next(moves.len())].position;
                out.push(q);
                if q.result().is_some() {
                    break;
                }
                p = q.swap();
                out.push(p);
            }
        }
        out
    }

    /// The side facts as the per-side arrays define them, for comparison.
    fn facts_by_sides(s: &[u8; 25]) -> (i32, u32, u32, u32) {
        let mut back = -1;
        let (mut total, mut cross, mut gammon_cross) = (0, 0, 1);
        for (i, &n) in s.iter().enumerate() {
            if n > 0 {
                let q = (i / 6) as u32;
                back = i as i32;
                total += u32::from(n);
                cross += u32::from(n) * (q + 1);
                gammon_cross += u32::from(n) * q;
            }
        }
        (back, total, cross, gammon_cross)
    }

    #[test]
    fn side_facts_read_from_the_board_are_the_side_arrays_facts() {
        for p in sample_positions(20_000) {
            for side in [Side::Player, Side::Opponent] {
                let f = side_facts(&p, side);
                assert_eq!(
                    (f.back, f.total, f.cross, f.gammon_cross),
                    facts_by_sides(&p.side(side)),
                    "{p:?} {side:?}"
                );
            }
        }
    }

    #[test]
    fn embedded_nets_give_consistent_chances() {
        let mut e = Evaluator::new(Arc::new(Nets::embedded()));
        for p in sample_positions(5_000) {
            let v = e.evaluate(&p);
            for x in v.to_array() {
                assert!((0.0..=1.0).contains(&x), "{p:?}: {v:?}");
            }
            assert!(
                v.win_gammon <= v.win && v.win_backgammon <= v.win_gammon,
                "{v:?}"
            );
            assert!(v.lose_gammon <= 1.0 - v.win + 1e-6, "{v:?}");
            assert!(v.lose_backgammon <= v.lose_gammon, "{v:?}");
            let e1 = v.equity();
            assert!((-3.0..=3.0).contains(&e1));
            // The cache returns the same answer.
            assert_eq!(e.evaluate(&p), v);
        }
    }

    #[test]
    fn evaluation_after_a_move_is_from_the_movers_side() {
        let mut e = Evaluator::new(Arc::new(Nets::embedded()));
        let start = Position::starting();
        let (m, p) = e.best_move(&start, Dice::new(3, 1).unwrap());
        assert_eq!(p, e.evaluate(&m.position.swap()).invert());
        let ranked = e.rank_moves(&start, Dice::new(3, 1).unwrap());
        assert_eq!(ranked[0].1.equity(), p.equity());
        assert!(ranked
            .windows(2)
            .all(|w| w[0].1.equity() >= w[1].1.equity()));
    }

    #[test]
    fn loading_names_the_bad_file() {
        let dir = ScratchDir::new("nets");
        Nets::embedded().save_dir(&dir).unwrap();
        assert!(Nets::load_dir(&dir).is_ok());
        // Truncate the race net.
        let race = dir.join("race.net");
        let bytes = std::fs::read(&race).unwrap();
        std::fs::write(&race, &bytes[..bytes.len() / 2]).unwrap();
        let err = Nets::load_dir(&dir).unwrap_err().to_string();
        assert!(
            err.contains("race.net") && err.contains("truncated"),
            "{err}"
        );
        // A contact net where the race net should be.
        std::fs::copy(dir.join("contact.net"), &race).unwrap();
        let err = Nets::load_dir(&dir).unwrap_err().to_string();
        assert!(
            err.contains("race.net") && err.contains("contact net"),
            "{err}"
        );
        std::fs::remove_file(&race).unwrap();
        let err = Nets::load_dir(&dir).unwrap_err().to_string();
        assert!(err.contains("race.net"), "{err}");
    }
}
