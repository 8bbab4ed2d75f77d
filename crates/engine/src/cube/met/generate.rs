//! Building a table from a parsed document: explicit tables, their extension to [`MAX_AWAY`]
//! points, Zadeh's formulae and the match equity calculator (`mec`).

use super::xml::{Document, PostPlayer, TableSpec};
use super::{
    Located, MatchEquityTable, Native, TableKind, EXTENSION_FREE_DROP, EXTENSION_GAMMON_RATE,
    MAX_AWAY,
};
use crate::game::match_state::Player;

// ---------------------------------------------------------------------------------------------
// Building a table from a document.

/// Looks up the parameters of a formula table, with defaults; unknown names are errors.
fn params<const N: usize>(
    table: &TableSpec,
    names: [(&str, f64); N],
    what: &str,
) -> Result<[f64; N], Located> {
    let mut values = names.map(|(_, v)| v);
    let mut seen = [false; N];
    for (name, v) in &table.params {
        let i = names.iter().position(|(n, _)| n == name).ok_or_else(|| {
            let known: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            (
                table.pos,
                format!(
                    "unknown parameter {name:?} for a {what} table (known: {})",
                    known.join(", ")
                ),
            )
        })?;
        if seen[i] {
            return Err((table.pos, format!("parameter {name:?} given twice")));
        }
        seen[i] = true;
        values[i] = *v;
    }
    Ok(values)
}

fn check_rate(v: f64, name: &str, pos: usize) -> Result<(), Located> {
    if (0.0..=1.0).contains(&v) {
        Ok(())
    } else {
        Err((pos, format!("parameter {name} = {v} is outside [0, 1]")))
    }
}

pub(super) fn build(doc: Document) -> Result<MatchEquityTable, Located> {
    let name = doc
        .name
        .clone()
        .ok_or((doc.root, "no <name> in <info>".to_string()))?;
    let pre_spec = doc
        .pre
        .as_ref()
        .ok_or((doc.root, "no pre-Crawford table".to_string()))?;
    let (declared, length_pos) = doc.length.unwrap_or((-1, doc.root));
    let explicit_length = if (1..=MAX_AWAY as i64).contains(&declared) {
        Some(declared as usize)
    } else {
        None
    };
    let needs_length = pre_spec.kind == TableKind::Explicit
        || doc.posts.iter().any(|p| p.kind == TableKind::Explicit);
    if needs_length && explicit_length.is_none() {
        return Err((
            length_pos,
            format!("an explicit table needs a <length> within 1..={MAX_AWAY}, not {declared}"),
        ));
    }

    if pre_spec.kind == TableKind::Explicit {
        let length = explicit_length.unwrap_or(1);
        if pre_spec.rows.len() != length {
            return Err((
                pre_spec.pos,
                format!(
                    "the pre-Crawford table has {} rows; length {length} needs {length}",
                    pre_spec.rows.len()
                ),
            ));
        }
        if let Some((i, row)) = pre_spec
            .rows
            .iter()
            .enumerate()
            .find(|(_, r)| r.len() != length)
        {
            return Err((
                pre_spec.pos,
                format!(
                    "row {} of the pre-Crawford table has {} entries; length {length} needs {length}",
                    i + 1,
                    row.len()
                ),
            ));
        }
    }
    if doc.posts.is_empty() {
        return Err((doc.root, "no post-Crawford table".to_string()));
    }

    // Which spec serves which player's post-Crawford table.
    let mut post_specs: [Option<&TableSpec>; 2] = [None, None];
    let mut post_both = false;
    for spec in &doc.posts {
        let targets: &[usize] = match spec.player {
            PostPlayer::Both => {
                post_both = true;
                &[0, 1]
            }
            PostPlayer::One(p) => {
                if p == Player::Zero {
                    &[0]
                } else {
                    &[1]
                }
            }
        };
        for &t in targets {
            if post_specs[t].is_some() {
                return Err((
                    spec.pos,
                    format!("a second post-Crawford table for player {t}"),
                ));
            }
            post_specs[t] = Some(spec);
        }
    }
    let [Some(post0), Some(post1)] = post_specs else {
        return Err((
            doc.posts[0].pos,
            "post-Crawford tables must be one with player=\"both\" or one each for players 0 and 1"
                .to_string(),
        ));
    };

    let mut post = [[0.0; MAX_AWAY]; 2];
    let mut native_post: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (p, spec) in [post0, post1].into_iter().enumerate() {
        match spec.kind {
            TableKind::Explicit => {
                let length = explicit_length.unwrap_or(1);
                let row = spec.rows.first().cloned().unwrap_or_default();
                if row.len() + 1 < length || row.len() > MAX_AWAY {
                    return Err((
                        spec.pos,
                        format!(
                            "the post-Crawford table has {} entries; a {length}-point table needs {} to {MAX_AWAY}",
                            row.len(),
                            length.saturating_sub(1).max(1)
                        ),
                    ));
                }
                if row.is_empty() {
                    return Err((spec.pos, "the post-Crawford table is empty".to_string()));
                }
                let keep = length - 1;
                post[p][..keep].copy_from_slice(&row[..keep]);
                extend_post_crawford(
                    &mut post[p],
                    keep,
                    EXTENSION_GAMMON_RATE,
                    EXTENSION_FREE_DROP.0,
                    EXTENSION_FREE_DROP.1,
                );
                native_post[p] = row;
            }
            TableKind::Zadeh => {
                let [g, fd2, fd4] = params(
                    spec,
                    [
                        ("gammon-rate-trailer", 0.25),
                        ("free-drop-2-away", 0.015),
                        ("free-drop-4-away", 0.004),
                    ],
                    "post-Crawford zadeh",
                )?;
                check_rate(g, "gammon-rate-trailer", spec.pos)?;
                check_rate(fd2, "free-drop-2-away", spec.pos)?;
                check_rate(fd4, "free-drop-4-away", spec.pos)?;
                extend_post_crawford(&mut post[p], 0, g, fd2, fd4);
            }
            TableKind::Mec => {
                let [g, win, fd2, fd4] = params(
                    spec,
                    [
                        ("gammon-rate", 0.25),
                        ("win-rate", 0.5),
                        ("free-drop-2-away", 0.015),
                        ("free-drop-4-away", 0.004),
                    ],
                    "post-Crawford mec",
                )?;
                check_rate(g, "gammon-rate", spec.pos)?;
                check_rate(win, "win-rate", spec.pos)?;
                check_rate(fd2, "free-drop-2-away", spec.pos)?;
                check_rate(fd4, "free-drop-4-away", spec.pos)?;
                post[p] = mec::post_crawford(g, win, fd2, fd4);
            }
        }
        if let Some((n, v)) = post[p]
            .iter()
            .enumerate()
            .find(|(_, v)| !(0.0..=1.0).contains(*v))
        {
            return Err((
                spec.pos,
                format!("the post-Crawford table of player {p} gives MWC {v} at {}-away, outside [0, 1]", n + 1),
            ));
        }
    }

    let mut pre = Box::new([[0.0; MAX_AWAY]; MAX_AWAY]);
    let mut native_pre = Vec::new();
    match pre_spec.kind {
        TableKind::Explicit => {
            let length = explicit_length.unwrap_or(1);
            for (i, row) in pre_spec.rows.iter().enumerate() {
                pre[i][..length].copy_from_slice(row);
            }
            extend_pre_crawford(&mut pre, length);
            native_pre = pre_spec.rows.clone();
        }
        TableKind::Zadeh => {
            let [g1, g2, delta, delta_bar] = params(
                pre_spec,
                [
                    ("gammon-rate-leader", 0.25),
                    ("gammon-rate-trailer", 0.15),
                    ("delta", 0.08),
                    ("delta-bar", 0.06),
                ],
                "zadeh",
            )?;
            check_rate(g1, "gammon-rate-leader", pre_spec.pos)?;
            check_rate(g2, "gammon-rate-trailer", pre_spec.pos)?;
            zadeh_pre_crawford(&mut pre, &post[0], g1, g2, delta, delta_bar);
        }
        TableKind::Mec => {
            let [g, win] = params(pre_spec, [("gammon-rate", 0.25), ("win-rate", 0.5)], "mec")?;
            check_rate(g, "gammon-rate", pre_spec.pos)?;
            check_rate(win, "win-rate", pre_spec.pos)?;
            mec::pre_crawford(g, win, &post, &mut pre);
        }
    }
    for (i, row) in pre.iter().enumerate() {
        if let Some((j, v)) = row
            .iter()
            .enumerate()
            .find(|(_, v)| !(0.0..=1.0).contains(*v))
        {
            return Err((
                pre_spec.pos,
                format!(
                    "the pre-Crawford table gives MWC {v} at {}-away, {}-away, outside [0, 1]",
                    i + 1,
                    j + 1
                ),
            ));
        }
    }

    let native = (pre_spec.kind == TableKind::Explicit
        && post0.kind == TableKind::Explicit
        && post1.kind == TableKind::Explicit)
        .then(|| Native {
            length: explicit_length.unwrap_or(1),
            pre: native_pre,
            post: native_post,
            post_both,
        });
    Ok(MatchEquityTable {
        name,
        description: doc.description.unwrap_or_default(),
        source: doc.source.unwrap_or_default(),
        pre_kind: pre_spec.kind,
        post_kind: [post0.kind, post1.kind],
        native,
        pre,
        post,
    })
}

/// Zadeh's post-Crawford recurrence from index `start` on (GNU Backgammon's
/// `initPostCrawfordMET`): the trailer doubles at once, so wins 2 or (gammon, rate `g`) 4
/// points, or loses the match: `P[i] = ½·(g·P[i−4] + (1−g)·P[i−2])` with `P[<0] = 1`, then the
/// free-drop corrections `fd2` at 2-away and `fd4` at 4-away are subtracted.
pub(super) fn extend_post_crawford(
    pc: &mut [f64; MAX_AWAY],
    start: usize,
    g: f64,
    fd2: f64,
    fd4: f64,
) {
    for i in start..MAX_AWAY {
        let back = |k: usize| if i >= k { pc[i - k] } else { 1.0 };
        pc[i] = 0.5 * (g * back(4) + (1.0 - g) * back(2));
        if i == 1 {
            pc[i] -= fd2;
        }
        if i == 3 {
            pc[i] -= fd4;
        }
    }
}

/// Standard normal cumulative distribution function.
pub(super) fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// Complementary error function (Chebyshev fit, fractional error below 1.2·10⁻⁷ everywhere).
pub(super) fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Completes the pre-Crawford table beyond its native size `n` (GNU Backgammon's `ExtendMET`,
/// after David Montgomery): for a player needing `a` points against `b ≤ a`, the match is a
/// random walk with per-game standard deviations `σ(a)`, `σ(b)` over `(a + b)/2` games;
/// MWC = P(a normal variable with σ = √(σ(a)² + σ(b)²)·√((a+b)/2) lies in [a − b, 6σ]).
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub(super) fn extend_pre_crawford(pre: &mut [[f64; MAX_AWAY]; MAX_AWAY], n: usize) {
    const SD: [f64; 11] = [
        0.0, 1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72,
    ];
    let sd = |away: usize| if away > 10 { 1.77 } else { SD[away] };
    for i in n..MAX_AWAY {
        let a = i + 1;
        for (j, cell) in pre[i].iter_mut().enumerate().take(i + 1) {
            let b = j + 1;
            let games = (a + b) as f64 / 2.0;
            let sigma = (sd(a).powi(2) + sd(b).powi(2)).sqrt() * games.sqrt();
            let gap = (a - b) as f64;
            *cell = if 6.0 * sigma > gap {
                normal_cdf(6.0) - normal_cdf(gap / sigma)
            } else {
                0.0
            };
        }
    }
    for i in 0..MAX_AWAY {
        for j in (if i < n { n } else { i + 1 })..MAX_AWAY {
            pre[i][j] = 1.0 - pre[j][i];
        }
    }
}

/// Zadeh's pre-Crawford table (GNU Backgammon's `initMETZadeh`). `post` is the post-Crawford
/// table used for the Crawford row; `g1`, `g2` the gammon rates of leader and trailer;
/// `delta`, `delta_bar` the cube-efficiency parameters.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub(super) fn zadeh_pre_crawford(
    pre: &mut [[f64; MAX_AWAY]; MAX_AWAY],
    post: &[f64; MAX_AWAY],
    g1: f64,
    g2: f64,
    delta: f64,
    delta_bar: f64,
) {
    const LEVELS: usize = 7;
    let pc = |k: isize| if k >= 0 { post[k as usize] } else { 1.0 };
    for i in 0..MAX_AWAY {
        let ii = i as isize;
        pre[i][0] = g1 * 0.5 * pc(ii - 2) + (1.0 - g1) * 0.5 * pc(ii - 1);
        pre[0][i] = 1.0 - pre[i][0];
    }
    for i in 1..MAX_AWAY {
        for j in 1..=i {
            // M(a, b) with the conventions M(<0, ·) = 1, M(·, <0) = 0.
            let m = |pre: &[[f64; MAX_AWAY]; MAX_AWAY], a: isize, b: isize| {
                if a < 0 {
                    1.0
                } else if b < 0 {
                    0.0
                } else {
                    pre[a as usize][b as usize]
                }
            };
            // Dead-cube drop point of the opponent when the player at (a, b) doubles to 2v.
            let dbar = |pre: &[[f64; MAX_AWAY]; MAX_AWAY], a: isize, b: isize, v: isize| {
                let vp = if a < 2 * v && b >= 2 * v { 2 * v } else { v };
                let lose = g2 * m(pre, a, b - 4 * vp) + (1.0 - g2) * m(pre, a, b - 2 * vp);
                (m(pre, a - v, b) - lose)
                    / (g1 * m(pre, a - 4 * vp, b) + (1.0 - g1) * m(pre, a - 2 * vp, b) - lose)
            };
            let (a, b) = (i as isize, j as isize);
            let mut d1 = [0.0; LEVELS + 1];
            let mut d2 = [0.0; LEVELS + 1];
            for level in (0..LEVELS).rev() {
                let v = 1isize << level;
                let d1bar = dbar(pre, a, b, v);
                let d2bar = dbar(pre, b, a, v);
                if a < 2 * v || b < 2 * v {
                    d1[level] = d1bar;
                    d2[level] = d2bar;
                } else {
                    d1[level] = 1.0 + (d2[level + 1] + delta) * (d1bar - 1.0);
                    d2[level] = 1.0 + (d1[level + 1] + delta) * (d2bar - 1.0);
                }
            }
            let value = ((d2[0] + delta_bar - 0.5) * m(pre, a - 1, b)
                + (d1[0] + delta_bar - 0.5) * m(pre, a, b - 1))
                / (d1[0] + delta_bar + d2[0] + delta_bar - 1.0);
            pre[i][j] = value;
            if i != j {
                pre[j][i] = 1.0 - value;
            }
        }
    }
}

/// Claes Thornberg's match equity calculator (`mec`), reimplemented from its description in
/// GNU Backgammon: post-Crawford equities from the gammon rate and a per-game win rate of the
/// favourite (player 0), Crawford equities from those, and pre-Crawford equities by
/// interpolating between the double points of both players, found recursively over the cube
/// levels.
mod mec {
    use super::MAX_AWAY;

    /// `E[p][o]`: equity of the favourite needing `p` points against `o` (0 = won).
    type Grid = Vec<[f64; MAX_AWAY + 1]>;

    #[allow(clippy::needless_range_loop)] // matrix code reads best with indices
    fn grid() -> Grid {
        let mut e = vec![[0.0; MAX_AWAY + 1]; MAX_AWAY + 1];
        for i in 1..=MAX_AWAY {
            e[0][i] = 1.0;
            e[i][0] = 0.0;
        }
        e
    }

    /// Post-Crawford equities of the favourite as trailer, `P[n]` for `n + 1` away.
    pub(super) fn post_crawford(g: f64, win: f64, fd2: f64, fd4: f64) -> [f64; MAX_AWAY] {
        let mut e = grid();
        e[1][1] = win;
        for i in 2..=MAX_AWAY {
            if i % 2 == 0 {
                // The trailer at an even score gets a free drop to the odd score below.
                e[1][i] = e[1][i - 1];
                e[i][1] = e[i - 1][1];
                let fd = match i {
                    2 => fd2,
                    4 => fd4,
                    _ => 0.0,
                };
                e[1][i] += fd;
                e[i][1] -= fd;
            } else {
                e[1][i] = e[0][i] * win
                    + e[1][i - 2] * (1.0 - win) * (1.0 - g)
                    + e[1][i.saturating_sub(4)] * (1.0 - win) * g;
                e[i][1] = e[i][0] * (1.0 - win)
                    + e[i - 2][1] * win * (1.0 - g)
                    + e[i.saturating_sub(4)][1] * win * g;
            }
        }
        let mut out = [0.0; MAX_AWAY];
        for (n, v) in out.iter_mut().enumerate() {
            *v = e[n + 1][1];
        }
        out
    }

    #[derive(Clone, Copy)]
    struct DoublePoint {
        equity: f64,
        win: f64,
    }

    /// Where `p` (needing `p`, winning a game with chance `wpp`) doubles `o` to `c`: the
    /// winning chance and equity (for `p`) at which `o` is indifferent between pass and take.
    fn double_point(p: usize, o: usize, c: usize, g: f64, wpp: f64, e: &Grid) -> DoublePoint {
        if p <= c / 2 {
            // A single win is enough for p: no reason to double.
            return DoublePoint {
                equity: 1.0,
                win: 1.0,
            };
        }
        let redouble = double_point(o, p, 2 * c, g, 1.0 - wpp, e);
        // o's equity at o-away, x-away.
        let eq_o = |x: usize| {
            if wpp > 0.5 {
                1.0 - e[x][o]
            } else {
                e[o][x]
            }
        };
        let after = |k: usize| p.saturating_sub(k);
        // o loses every game on a c-cube (no recube).
        let e0 = eq_o(after(c)) * (1.0 - g) + eq_o(after(2 * c)) * g;
        // o passes: loses c/2 points.
        let pass = eq_o(after(c / 2));
        let w = (pass - e0) * redouble.win / (redouble.equity - e0);
        DoublePoint {
            equity: 1.0 - pass,
            win: 1.0 - w,
        }
    }

    /// Pre-Crawford table (player 0 = the favourite) from the post-Crawford tables.
    #[allow(clippy::needless_range_loop)] // matrix code reads best with indices
    pub(super) fn pre_crawford(
        g: f64,
        win: f64,
        post: &[[f64; MAX_AWAY]; 2],
        pre: &mut [[f64; MAX_AWAY]; MAX_AWAY],
    ) {
        let ml = MAX_AWAY;
        let mut e = grid();
        for i in 0..ml {
            e[i + 1][1] = post[0][i];
            e[1][i + 1] = 1.0 - post[1][i];
        }
        // Crawford game: downwards, so the post-Crawford values below are still in place.
        for i in (2..=ml).rev() {
            e[1][i] = e[0][i] * win
                + e[1][i - 1] * (1.0 - win) * (1.0 - g)
                + e[1][i - 2] * (1.0 - win) * g;
            e[i][1] = e[i][0] * (1.0 - win) + e[i - 1][1] * win * (1.0 - g) + e[i - 2][1] * win * g;
        }
        let interpolate = |a: usize, b: usize, e: &Grid| {
            let fav = double_point(a, b, 2, g, win, e);
            let dog = double_point(b, a, 2, g, 1.0 - win, e);
            let (dog_e, dog_w) = (1.0 - dog.equity, 1.0 - dog.win);
            dog_e + (fav.equity - dog_e) * (win - dog_w) / (fav.win - dog_w)
        };
        for i in 2..=ml {
            for j in i..=ml {
                e[i][j] = interpolate(i, j, &e);
                if i != j {
                    e[j][i] = interpolate(j, i, &e);
                }
            }
        }
        for i in 0..ml {
            for j in 0..ml {
                pre[i][j] = e[i + 1][j + 1];
            }
        }
    }
}
