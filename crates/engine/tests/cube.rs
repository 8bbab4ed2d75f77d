//! Cube theory against the seeds: the manual's appendix "Equities explained"
//! (`shared/seeds/000_*`), the Janowski note (`shared/seeds/002_*`) and the manual's cube
//! sections (`shared/seeds/001_*`). Every expected number is derived in the comments; where a
//! seed's printed number does not follow from its own inputs, the comment says so and the test
//! checks what does follow.

use cubeful_engine::cube::met::{MatchEquityTable, MatchScore};
use cubeful_engine::cube::{
    average_win_loss, cube_decision, cubeful_equity, cubeful_mwc, cubeless_equity, cubeless_mwc,
    decide, match_cube_points, match_dead_take_point, money_live_equity, money_points,
    money_take_point, response, should_raccoon, CubeAction, CubeContext, ExactCubeful, Ownership,
    Response,
};
use cubeful_engine::eval::Probabilities;
use cubeful_engine::Player;
use proptest::prelude::*;

/// Probabilities from the six non-cumulative outcome chances of a table "wins single / gammon /
/// backgammon, losses single / gammon / backgammon".
fn from_outcomes(ws: f64, wg: f64, wb: f64, ls: f64, lg: f64, lb: f64) -> Probabilities {
    let _ = ls;
    Probabilities {
        win: (ws + wg + wb) as f32,
        win_gammon: (wg + wb) as f32,
        win_backgammon: wb as f32,
        lose_gammon: (lg + lb) as f32,
        lose_backgammon: lb as f32,
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

// ---------------------------------------------------------------------------------------------
// Money play

/// Janowski note, "Money game": outcomes 47 / 17 / 1 won, 31 / 4 / 0 lost.
/// W = (47·1 + 17·2 + 1·3)/65 = 1.292, L = (31·1 + 4·2)/35 = 1.114, and the dead-cube take point
/// (L − ½)/(W + L) = 0.614/2.406 = 0.255.
#[test]
fn janowski_note_money_example() {
    let p = from_outcomes(0.47, 0.17, 0.01, 0.31, 0.04, 0.0);
    let (w, l) = average_win_loss(&p).unwrap();
    assert!(close(w.into(), 1.292, 5e-4), "{w}");
    assert!(close(l.into(), 1.114, 5e-4), "{l}");
    assert!(close(money_take_point(w, l, 0.0).into(), 0.255, 5e-4));
    // Live (x = 1): (L − ½)/(W + L + ½) = 0.614/2.906 = 0.211; the note's "real" take point with
    // x = 0.7: 0.614/2.756 = 0.223.
    assert!(close(money_take_point(w, l, 1.0).into(), 0.2113, 5e-4));
    assert!(close(money_take_point(w, l, 0.7).into(), 0.2228, 5e-4));
}

/// The appendix's money example: win 0.454, W(g) 0.103, W(bg) 0.001, L(g) 0.106, L(bg) 0.003.
///
/// * W = (0.454 + 0.103 + 0.001)/0.454 = 1.229 — as printed.
/// * L: the appendix prints (0.556 + 0.106 + 0.003)/0.556 = 1.196, but the losing chance is
///   1 − 0.454 = 0.546, and (0.546 + 0.106 + 0.003)/0.546 = 1.1996. 1.196 follows only from the
///   typo 0.556; we compute 1.1996.
/// * Cubeless equity 2·0.454 − 1 + (0.103 − 0.106) + (0.001 − 0.003) = −0.097 — as printed. (The
///   appendix's formula "2p(w) − 1 + 2(p(wg) − p(lg)) + 3(p(wbg) − p(lbg))" would give −0.104 with
///   these cumulative chances; −0.097 is GNU Backgammon's formula, ours.)
/// * Live cube, centred, with the printed W = 1.229 and L = 1.196: TP = 0.696/2.925 = 0.2379,
///   CP = 2.196/2.925 = 0.7508, and at 0.454 the line (TP, −1)–(CP, +1) gives −0.157 — as printed;
///   the cubeful equity 0.32·(−0.097) + 0.68·(−0.157) = −0.138 — as printed.
/// * With the correct L = 1.1996 the same steps give live −0.160 and cubeful −0.140, which is what
///   `cubeful_equity` returns for these chances.
#[test]
fn appendix_money_example() {
    let p = Probabilities {
        win: 0.454,
        win_gammon: 0.103,
        win_backgammon: 0.001,
        lose_gammon: 0.106,
        lose_backgammon: 0.003,
    };
    let (w, l) = average_win_loss(&p).unwrap();
    assert!(close(w.into(), 1.229, 5e-4), "{w}");
    assert!(close(l.into(), 1.1996, 5e-4), "{l}");
    assert!(close((0.556 + 0.106 + 0.003) / 0.556, 1.196, 5e-4)); // the appendix's typo
    let ctx = CubeContext::money(1, Ownership::Centered).with_efficiency(0.68);
    assert!(close(cubeless_equity(&p, &ctx).into(), -0.097, 5e-4));
    assert!(close(p.equity().into(), -0.097, 5e-4));

    // The seed's own inputs reproduce its numbers.
    let live_seed = money_live_equity(0.454, 1.229, 1.196, Ownership::Centered, false);
    assert!(close(live_seed.into(), -0.157, 5e-4), "{live_seed}");
    let cubeful_seed = -0.097 * 0.32 + live_seed * 0.68;
    assert!(close(cubeful_seed.into(), -0.138, 5e-4), "{cubeful_seed}");

    // From the chances themselves (L = 1.1996).
    let live = money_live_equity(p.win, w, l, Ownership::Centered, false);
    assert!(close(live.into(), -0.160, 5e-4), "{live}");
    assert!(close(cubeful_equity(&p, &ctx).into(), -0.1398, 5e-4));
}

/// Janowski note, "Opening position", GNU Backgammon's 2-ply chances (0.3547 / 0.1346 / 0.0097
/// won, 0.3582 / 0.1353 / 0.0075 lost) with x = 0.68: owned 0.1714, centred 0.0016, opponent
/// owns −0.3373 as printed (the note doubles the opponent-owned equity so it compares with
/// double/take: our −0.1686 normalised to the 1-cube, times 2).
///
/// The note's closed forms: `E_player = p(W + L + ½x) − L` equals our owned-cube value; its
/// formula labelled `E_center`, `p(W + L + ½x) − L − ½x`, is in fact the opponent-owned value
/// (−0.1686), and the one labelled `E_opponent`, `4/(4 − x)·(p(W + L + ½x) − L − ¼x)`, is Janowski's
/// centred formula (0.00164 here). The two labels are swapped in the note. GNU Backgammon (and we)
/// compute the centred cube as the appendix says, dead·(1 − x) + live·x = 0.00163, which agrees
/// with the note's 0.0016 to its four digits.
#[test]
fn janowski_note_opening_position() {
    let p = from_outcomes(0.3547, 0.1346, 0.0097, 0.3582, 0.1353, 0.0075);
    let e = |owner| cubeful_equity(&p, &CubeContext::money(1, owner).with_efficiency(0.68)) as f64;
    assert!(close(e(Ownership::OnRoll), 0.1714, 1e-4));
    assert!(close(e(Ownership::Centered), 0.0016, 1e-4));
    assert!(close(2.0 * e(Ownership::Opponent), -0.3373, 1e-4));

    let (w, l) = average_win_loss(&p).unwrap();
    let (w, l, pw, x) = (w as f64, l as f64, p.win as f64, 0.68);
    let e_player = pw * (w + l + 0.5 * x) - l;
    let e_labelled_center = pw * (w + l + 0.5 * x) - l - 0.5 * x;
    let e_labelled_opponent = 4.0 / (4.0 - x) * (pw * (w + l + 0.5 * x) - l - 0.25 * x);
    assert!(close(e_player, e(Ownership::OnRoll), 1e-5));
    assert!(close(e_labelled_center, e(Ownership::Opponent), 1e-5));
    assert!(close(e_labelled_opponent, 0.00164, 1e-5));
    assert!(close(e(Ownership::Centered), 0.00163, 1e-5));
}

/// Janowski note, XG's chances: the opening (x = 0.7: owned 0.182, centred 0.008, opponent owns
/// −0.337 doubled) and the take points "Dead 0.3107 / 0.3032, perfectly live 0.2604 / 0.2541"
/// (Black = the opponent, White = the player on roll); the gammonless bear-off at 0.49694 with
/// x = 0.622 (owned 0.1484, opponent owns −0.3251 doubled; centred: the note's −0.0084 is
/// Janowski's closed form, the appendix's mix gives −0.0087 — exactly what the note says XG
/// reports); the middle game at x = 0.7 (owned 0.8285, opponent 0.9570 doubled; centred: the
/// note's 0.7921 is again the closed form, the mix gives 0.8123, nearer XG's 0.8140).
#[test]
fn janowski_note_xg_examples() {
    let e = |p: &Probabilities, owner, x| {
        cubeful_equity(p, &CubeContext::money(1, owner).with_efficiency(x)) as f64
    };
    let opening = from_outcomes(0.3571, 0.1316, 0.0102, 0.3654, 0.1285, 0.0072);
    assert!(close(e(&opening, Ownership::OnRoll, 0.7), 0.182, 1e-3));
    assert!(close(e(&opening, Ownership::Centered, 0.7), 0.008, 1e-3));
    assert!(close(
        2.0 * e(&opening, Ownership::Opponent, 0.7),
        -0.337,
        1e-3
    ));
    let (w, l) = average_win_loss(&opening).unwrap();
    let white = money_points(w, l, false, false); // the player on roll as taker
    let black = money_points(l, w, false, false);
    assert!(close(white.take[0].into(), 0.3032, 1e-4));
    assert!(close(black.take[0].into(), 0.3107, 1e-4));
    assert!(close(white.take[1].into(), 0.2541, 1e-4));
    assert!(close(black.take[1].into(), 0.2604, 1e-4));

    let bearoff = from_outcomes(0.49694, 0.0, 0.0, 0.50306, 0.0, 0.0);
    assert!(close(e(&bearoff, Ownership::OnRoll, 0.622), 0.1484, 1e-4));
    assert!(close(
        e(&bearoff, Ownership::Centered, 0.622),
        -0.0087,
        1e-4
    ));
    assert!(close(
        2.0 * e(&bearoff, Ownership::Opponent, 0.622),
        -0.3251,
        1e-4
    ));

    let middle = from_outcomes(0.4156, 0.2333, 0.0305, 0.2610, 0.0568, 0.0028);
    assert!(close(e(&middle, Ownership::OnRoll, 0.7), 0.8285, 1e-4));
    assert!(close(e(&middle, Ownership::Centered, 0.7), 0.8123, 1e-4));
    assert!(close(
        2.0 * e(&middle, Ownership::Opponent, 0.7),
        0.9570,
        1e-4
    ));
}

/// The manual's Jacoby rule and money points: gammons do not count while the cube is centred.
#[test]
fn jacoby_rule() {
    let p = Probabilities {
        win: 0.6,
        win_gammon: 0.3,
        win_backgammon: 0.0,
        lose_gammon: 0.1,
        lose_backgammon: 0.0,
    };
    let jacoby = CubeContext::money_with_rules(1, Ownership::Centered, true, false);
    let plain = CubeContext::money(1, Ownership::Centered);
    assert!(close(cubeless_equity(&p, &jacoby).into(), 0.2, 1e-6));
    assert!(close(cubeless_equity(&p, &plain).into(), 0.4, 1e-6));
    // Once the cube is turned gammons count again.
    let owned = CubeContext::money_with_rules(2, Ownership::OnRoll, true, false);
    assert!(close(cubeless_equity(&p, &owned).into(), 0.4, 1e-6));
    // Jacoby: the cubeful equity never exceeds a cash with a centred cube (x = 1, far ahead).
    let far = Probabilities {
        win: 0.95,
        win_gammon: 0.6,
        win_backgammon: 0.1,
        lose_gammon: 0.0,
        lose_backgammon: 0.0,
    };
    assert!(close(
        cubeful_equity(&far, &jacoby.with_efficiency(1.0)).into(),
        1.0,
        1e-6
    ));
    // Initial double points under Jacoby (Janowski): with beavers (L − ¼)/(W + L − ½), without
    // (L − ½)/(W + L − 1).
    let m = money_points(1.2, 1.1, true, true);
    assert!(close(m.initial_double[0].into(), 0.85 / 1.8, 1e-6));
    let m = money_points(1.2, 1.1, true, false);
    assert!(close(m.initial_double[0].into(), 0.6 / 1.3, 1e-6));
}

/// Beavers and raccoons in money play.
#[test]
fn beavers_and_raccoons() {
    let beavers = CubeContext::money_with_rules(1, Ownership::Centered, false, true);
    let plain = CubeContext::money(1, Ownership::Centered);
    // The doubler's double/take equity −0.3: the taker is better than even, so he beavers.
    assert_eq!(response(-0.3, &beavers), Response::Beaver);
    assert_eq!(response(-0.3, &plain), Response::Take);
    assert_eq!(response(1.3, &beavers), Response::Pass);
    // A beaver of a double whose double/take is positive for the doubler is wrong: raccoon.
    assert!(should_raccoon(0.2, &beavers));
    assert!(!should_raccoon(-0.2, &beavers));
    assert!(!should_raccoon(0.2, &plain));
    // Market window points: beaver L/(W + L) dead, L/(W + L + ½) live; raccoon (L + ½)/(W + L + ½)
    // live.
    let m = money_points(1.0, 1.0, false, true);
    assert!(close(m.beaver[0].into(), 0.5, 1e-6));
    assert!(close(m.beaver[1].into(), 1.0 / 2.5, 1e-6));
    assert!(close(m.raccoon[1].into(), 1.5 / 2.5, 1e-6));
}

/// The manual's hypergammon example (§11.1.6): no double −0.219, double/take −0.710, double/pass
/// +1.000 in a money session with beavers → "No double, beaver".
#[test]
fn manual_no_double_beaver() {
    let ctx = CubeContext::money_with_rules(1, Ownership::Centered, true, true);
    let d = decide(-0.219, -0.710, &ctx, true);
    assert_eq!(d.action, CubeAction::NoDoubleBeaver);
    assert_eq!(d.action.text(), "No double, beaver");
    assert_eq!(d.optimal, -0.219);
    assert_eq!(d.action.response(), Response::Beaver);
    // The same without beavers is a plain "No double, take" with GNU Backgammon's percentage:
    // (ND − DT)/(DP − DT) = 0.491/1.710 = 28.7%.
    let d = decide(
        -0.219,
        -0.710,
        &CubeContext::money(1, Ownership::Centered),
        true,
    );
    assert_eq!(d.action, CubeAction::NoDoubleTake);
    assert_eq!(
        d.proper_cube_action(),
        "Proper cube action: No double, take (28.7%)"
    );
}

/// GNU Backgammon's cube analysis text for "too good" and a Jacoby double/pass.
#[test]
fn cube_decision_reports() {
    let money = CubeContext::money(1, Ownership::Centered);
    let d = decide(1.7744, 3.3354, &money, true);
    assert_eq!(d.action, CubeAction::TooGoodPass);
    assert_eq!(
        d.to_string(),
        "Cubeful equities:\n\
         1. No double           +1.774\n\
         2. Double, take        +3.335  (+1.561)\n\
         3. Double, pass        +1.000  (-0.774)\n\
         \n\
         Proper cube action: Too good to double, pass (33.2%)\n"
    );
    // Jacoby, centred: no double equals the cash (+1), not optional because gammons only count
    // after a double.
    let jacoby = CubeContext::money_with_rules(1, Ownership::Centered, true, false);
    let d = decide(0.999_996, 3.324, &jacoby, true);
    assert_eq!(d.action, CubeAction::DoublePass);
    assert_eq!(
        d.to_string(),
        "Cubeful equities:\n\
         1. Double, pass        +1.000\n\
         2. Double, take        +3.324  (+2.324)\n\
         3. No double           +1.000  (-0.000)\n\
         \n\
         Proper cube action: Double, pass\n"
    );
    // Without Jacoby the same equities make the double optional (playing on is as good).
    let d = decide(0.999_996, 3.324, &money, true);
    assert_eq!(d.action, CubeAction::OptionalDoublePass);
    // Redoubles.
    let owned = CubeContext::money(2, Ownership::OnRoll);
    let d = decide(0.4, 0.6, &owned, true);
    assert_eq!(d.action, CubeAction::RedoubleTake);
    assert!(d.to_string().contains("1. Redouble, take"));
    assert_eq!(
        decide(0.4, 1.6, &owned, true).action,
        CubeAction::RedoublePass
    );
    assert_eq!(
        decide(1.2, 1.6, &owned, true).action,
        CubeAction::TooGoodRedoublePass
    );
    assert_eq!(
        decide(1.2, 0.9, &owned, true).action,
        CubeAction::TooGoodRedoubleTake
    );
    assert_eq!(
        decide(0.5, 0.3, &owned, true).action,
        CubeAction::NoRedoubleTake
    );
    // No gammons: never "too good".
    assert_eq!(
        decide(1.2, 1.6, &money, false).action,
        CubeAction::DoublePass
    );
    // The opponent owns the cube.
    let d = decide(0.3, 0.3, &CubeContext::money(2, Ownership::Opponent), true);
    assert_eq!(d.action, CubeAction::NotAvailable);
}

/// 0-ply cube decisions from chances.
#[test]
fn zero_ply_money_decisions() {
    // The Janowski note's opening position: no double (centred 0.0016 vs double/take −0.337).
    let p = from_outcomes(0.3547, 0.1346, 0.0097, 0.3582, 0.1353, 0.0075);
    let d = cube_decision(&p, &CubeContext::money(1, Ownership::Centered));
    assert_eq!(d.action, CubeAction::NoDoubleTake);
    assert!(close(d.no_double.into(), 0.0016, 1e-4));
    assert!(close(d.double_take.into(), -0.3373, 1e-4));
    assert_eq!(d.double_pass, 1.0);
    // With beavers the opponent would beaver.
    let d = cube_decision(
        &p,
        &CubeContext::money_with_rules(1, Ownership::Centered, false, true),
    );
    assert_eq!(d.action, CubeAction::NoDoubleBeaver);
    // A gammonless race at 80% with a centred cube: double/take is 2·(opponent-owned equity),
    // which exceeds 1 past the live cash point 0.8 → double, pass.
    let race = Probabilities {
        win: 0.85,
        ..Probabilities::default()
    };
    let d = cube_decision(
        &race,
        &CubeContext::money(1, Ownership::Centered).with_efficiency(0.7),
    );
    assert_eq!(d.action, CubeAction::DoublePass);
    // 70%: double, take.
    let race = Probabilities {
        win: 0.7,
        ..Probabilities::default()
    };
    let d = cube_decision(
        &race,
        &CubeContext::money(1, Ownership::Centered).with_efficiency(0.7),
    );
    assert_eq!(d.action, CubeAction::DoubleTake);
}

/// Two-sided bearoff: exact cubeful money equities are used as they are in money play, and in
/// match play through the efficiency they imply.
#[test]
fn exact_bearoff_equities() {
    let p = Probabilities {
        win: 0.6,
        ..Probabilities::default()
    };
    let exact = ExactCubeful::from_array([0.35, 0.2, 0.05]);
    let ctx = CubeContext::money(1, Ownership::Centered).with_exact(exact);
    assert_eq!(cubeful_equity(&p, &ctx), 0.2);
    let owned = CubeContext::money(1, Ownership::OnRoll).with_exact(exact);
    assert_eq!(cubeful_equity(&p, &owned), 0.35);
    // Match play: the implied x for the centred cube. Dead 0.2, live with W = L = 1 at 0.6:
    // −1 + 2·0.4/0.6 = 0.3333; an exact 0.2 + 0.6·0.1333 = 0.28 means x = 0.6.
    let exact = ExactCubeful::from_array([0.5, 0.28, 0.0]);
    let met = MatchEquityTable::kazaross_xg2();
    let score = MatchScore::new(15, [0, 0], false);
    let base = CubeContext::new_match(met, score, Player::Zero, 1, Ownership::Centered);
    let with_exact = cubeful_mwc(&p, &base.with_exact(exact)).unwrap();
    let with_x = cubeful_mwc(&p, &base.with_efficiency(0.6)).unwrap();
    assert!(close(with_exact.into(), with_x.into(), 1e-6));
}

// ---------------------------------------------------------------------------------------------
// Match play

/// The appendix's cubeless MWC example: "0 30 60 - 40 10 0" (backgammon, gammon, win — lose,
/// gammon, backgammon, i.e. win 60% with 30% gammons, lose 40% with 10% gammons) at 1-3 to 5 with
/// the cube on 2, for the player at 1 (4-away): winning 2 → 2-away/2-away = 50%, winning a gammon
/// (4) wins the match, any loss loses it: 30%·50% + 30%·100% = 45%. And "0 100 100 - 0 0 0" (a
/// sure gammon) is MWC 100% = NEMG +3, where the money equity is only +2.
#[test]
fn appendix_cubeless_mwc_example() {
    let met = MatchEquityTable::kazaross_xg2();
    let score = MatchScore::new(5, [1, 3], false);
    let ctx = CubeContext::new_match(met, score, Player::Zero, 2, Ownership::Opponent);
    let p = Probabilities {
        win: 0.6,
        win_gammon: 0.3,
        win_backgammon: 0.0,
        lose_gammon: 0.1,
        lose_backgammon: 0.0,
    };
    assert!(close(cubeless_mwc(&p, &ctx).unwrap().into(), 0.45, 1e-6));
    // The gammon-price EMG is the NEMG of the cubeless MWC.
    let nemg = ctx.mwc_to_equity(0.45).unwrap();
    assert!(close(cubeless_equity(&p, &ctx).into(), nemg.into(), 1e-6));
    let gammon = Probabilities {
        win: 1.0,
        win_gammon: 1.0,
        ..Probabilities::default()
    };
    assert!(close(
        cubeless_mwc(&gammon, &ctx).unwrap().into(),
        1.0,
        1e-9
    ));
    assert!(close(cubeless_equity(&gammon, &ctx).into(), 3.0, 1e-6));
    assert!(close(gammon.equity().into(), 2.0, 1e-9));
}

fn woolsey() -> MatchEquityTable {
    MatchEquityTable::load_gnubg_xml(cubeful_testkit::shared_path("corpus/met/woolsey.xml"))
        .unwrap()
}

/// The appendix's match example: the position above at 3-0 to 7 (White, player 0, leads 3-0 and
/// needs 4; Black, player 1, is on roll needing 7), Woolsey's table.
///
/// Take points (the appendix's table, "cube value" = the cube before the double):
/// * cube 4: Black 0% (a pass loses the match), White 41% (passing leaves White 4-away against
///   3-away: 1 − 0.59 = 41%, and the 8-cube decides the match) — reproduced;
/// * cube 2: Black 15%, White 38.5% — reproduced (0.1500, 0.3851);
/// * cube 1: Black 24.5%, White 27.3% — reproduced (0.2449, 0.2725).
///
/// Live-cube MWC corners for Black: losing at White's gammon rate 0.103/0.546 = 18.9% (+0.5%
/// backgammons): 1 − (0.806·0.76 + 0.189·0.85 + 0.005·0.91) = 22.2% (appendix: 22%); White cashes
/// at Black's take point: MWC(−3,−7) for White = 76% → 24% (appendix: 24%); Black cashes at his
/// cash point 72.7%: MWC(−4,−6) = 36% (appendix: 36%); Black wins at his gammon rate
/// 0.102/0.454 = 22.5% (+0.2% backgammons): 0.773·0.36 + 0.225·0.42 + 0.002·0.50 = 37.4%. The
/// appendix prints 41% here, yet its own formula "78%·MWC(−4,−6) + 22%·MWC(−4,−5)" gives
/// 0.78·0.36 + 0.22·0.42 = 37.3% with Woolsey's table: 41% is not derivable, we get 37.4%.
///
/// Cubeless MWC: 0.351·0.36 + 0.102·0.42 + 0.001·0.50 + 0.440·0.24 + 0.103·0.15 + 0.003·0.09
/// = 29.1% (appendix: 29.1%). Live MWC at 45.4%, between (24.5%, 24%) and (72.7%, 36%):
/// 0.24 + 0.12·(0.454 − 0.2449)/(0.7275 − 0.2449) = 29.2% (appendix: 29.2%; the 41% corner does
/// not enter). Cubeful with x = 0.68: 0.32·29.10% + 0.68·29.20% = 29.17% (appendix: 29.17%).
/// (The appendix also writes White's gammon rate as "0.106/54.6" — 0.106/0.546 was meant.)
#[test]
fn appendix_match_example() {
    let met = woolsey();
    let p = Probabilities {
        win: 0.454,
        win_gammon: 0.103,
        win_backgammon: 0.001,
        lose_gammon: 0.106,
        lose_backgammon: 0.003,
    };
    let score = MatchScore::new(7, [3, 0], false);
    let (white, black) = (Player::Zero, Player::One);
    let ctx =
        CubeContext::new_match(&met, score, black, 1, Ownership::Centered).with_efficiency(0.68);

    let levels = match_cube_points(&p, &ctx).unwrap();
    assert_eq!(levels.len(), 2);
    assert_eq!((levels[0].cube, levels[1].cube), (1, 2));
    assert!(levels[0].live && !levels[1].live);
    assert!(
        close(levels[0].take_point(black), 0.245, 5e-4),
        "{:?}",
        levels[0]
    );
    assert!(
        close(levels[0].take_point(white), 0.273, 5e-4),
        "{:?}",
        levels[0]
    );
    assert!(
        close(levels[1].take_point(black), 0.150, 5e-4),
        "{:?}",
        levels[1]
    );
    assert!(
        close(levels[1].take_point(white), 0.385, 5e-4),
        "{:?}",
        levels[1]
    );
    let four = CubeContext { cube: 4, ..ctx };
    let top = match_cube_points(&p, &four).unwrap();
    assert!(close(top[0].take_point(black), 0.0, 1e-9), "{:?}", top[0]);
    assert!(close(top[0].take_point(white), 0.41, 1e-9), "{:?}", top[0]);

    // Corners, step by step from the table.
    let o = met.outcomes(&score, black, 1);
    assert_eq!((o.lose[0], o.win[0]), (0.24, 0.36));
    let g_white = (0.106 - 0.003) / 0.546;
    let bg_white = 0.003 / 0.546;
    let lose_all =
        (1.0 - g_white - bg_white) * o.lose[0] + g_white * o.lose[1] + bg_white * o.lose[2];
    assert!(close(lose_all, 0.222, 5e-4), "{lose_all}");
    let g_black = (0.103 - 0.001) / 0.454;
    let bg_black = 0.001 / 0.454;
    let win_all = (1.0 - g_black - bg_black) * o.win[0] + g_black * o.win[1] + bg_black * o.win[2];
    assert!(close(win_all, 0.374, 5e-4), "{win_all}");
    assert!(close(0.78 * 0.36 + 0.22 * 0.42, 0.373, 5e-4)); // the appendix's formula, not 41%

    let dead = cubeless_mwc(&p, &ctx).unwrap() as f64;
    assert!(close(dead, 0.291, 5e-4), "{dead}");
    let live = cubeful_mwc(&p, &ctx.with_efficiency(1.0)).unwrap() as f64;
    let tp = levels[0].take_point(black);
    let cp = 1.0 - levels[0].take_point(white);
    let expected_live = 0.24 + (0.36 - 0.24) * (0.454 - tp) / (cp - tp);
    assert!(close(live, expected_live, 1e-6));
    assert!(close(live, 0.292, 5e-4), "{live}");
    let cubeful = cubeful_mwc(&p, &ctx).unwrap() as f64;
    assert!(close(cubeful, 0.32 * dead + 0.68 * live, 1e-6));
    assert!(close(cubeful, 0.2917, 1e-4), "{cubeful}");
}

/// Janowski note, "Example: 5-away, 3-away" (Kazaross-XG2, long race, no gammons): the taker at
/// 5-away against 3-away, cube 1: dead 0.287, live 0.191 (the doubler's redouble take point at the
/// 2-cube is 0.334, dead = live because the 4-cube would be dead): 0.287·(1 − 0.334) = 0.191.
#[test]
fn janowski_note_five_away_three_away() {
    let met = MatchEquityTable::kazaross_xg2();
    let race = Probabilities {
        win: 0.5,
        ..Probabilities::default()
    };
    // Doubler player 0 at 3-away, taker player 1 at 5-away.
    let score = MatchScore::new(5, [2, 0], false);
    let ctx = CubeContext::new_match(met, score, Player::Zero, 1, Ownership::Centered);
    let dead = match_dead_take_point(&race, &ctx, Player::Zero).unwrap();
    assert!(close(dead, 0.28731, 1e-5), "{dead}");
    let levels = match_cube_points(&race, &ctx).unwrap();
    assert!(
        close(levels[0].take_point(Player::One), 0.19135, 1e-5),
        "{:?}",
        levels
    );
    assert!(
        close(levels[1].take_point(Player::Zero), 0.33401, 1e-5),
        "{:?}",
        levels
    );
    let dead2 = match_dead_take_point(&race, &CubeContext { cube: 2, ..ctx }, Player::One).unwrap();
    assert!(close(dead2, 0.33401, 1e-5));
    assert!(close(0.28731 * (1.0 - 0.33401), 0.19135, 1e-5)); // the note's recursion
}

/// Janowski note, "Example: 25-away, 24-away": the taker at 25-away against 24-away; cube levels
/// 16, 8, 4, 2, 1 alternate the taker. Dead / live take points as printed:
/// 16: 0.043 / 0.043, 8: 0.233 / 0.223, 4: 0.243 / 0.189, 2: 0.254 / 0.206, 1: 0.253 / 0.201.
#[test]
fn janowski_note_twenty_five_away() {
    let met = MatchEquityTable::kazaross_xg2();
    let race = Probabilities {
        win: 0.5,
        ..Probabilities::default()
    };
    // Player 0 at 24-away doubles first; player 1 at 25-away.
    let score = MatchScore::new(25, [1, 0], false);
    let ctx = CubeContext::new_match(met, score, Player::Zero, 1, Ownership::Centered);
    let levels = match_cube_points(&race, &ctx).unwrap();
    let cubes: Vec<u32> = levels.iter().map(|l| l.cube).collect();
    assert_eq!(cubes, [1, 2, 4, 8, 16]);
    let expected = [
        (0.253, 0.201),
        (0.254, 0.206),
        (0.243, 0.189),
        (0.233, 0.223),
        (0.043, 0.043),
    ];
    for (n, level) in levels.iter().enumerate() {
        // At cube 1, 4, 16 player 0 doubles and player 1 takes; at 2 and 8 the reverse.
        let (doubler, taker) = if n % 2 == 0 {
            (Player::Zero, Player::One)
        } else {
            (Player::One, Player::Zero)
        };
        let dead = match_dead_take_point(
            &race,
            &CubeContext {
                cube: level.cube,
                ..ctx
            },
            doubler,
        )
        .unwrap();
        let live = level.take_point(taker);
        assert!(
            close(dead, expected[n].0, 5e-4),
            "cube {}: dead {dead}",
            level.cube
        );
        assert!(
            close(live, expected[n].1, 5e-4),
            "cube {}: live {live}",
            level.cube
        );
    }
}

/// Janowski note, "Example with gammons": White leads −4,−7 (player 0, 4-away, on roll) with
/// GNU Backgammon's 2-ply chances 0.2709 / 0.3728 / 0.0167 won, 0.2543 / 0.0807 / 0.0046 lost.
/// Black's dead take point 0.4345 and White's take point for the (dead) redouble 0.3776 are
/// reproduced. For the live take point the note gets 0.2704 = 0.4345·(1 − 0.3776) and calls GNU
/// Backgammon's "Fully live" 0.3012 "a bit of a mystery". GNU Backgammon's recursion measures
/// the taker's gain at his redouble as *cashing* the doubled cube (with a live cube he redoubles
/// his opponent out, so his gammons never happen), not as winning it at his gammon rate; with
/// that gain the same recursion gives 0.3011 — GNU Backgammon's figure, and ours.
#[test]
fn janowski_note_gammon_example() {
    let met = MatchEquityTable::kazaross_xg2();
    let p = from_outcomes(0.2709, 0.3728, 0.0167, 0.2543, 0.0807, 0.0046);
    let score = MatchScore::new(7, [3, 0], false);
    let ctx = CubeContext::new_match(met, score, Player::Zero, 1, Ownership::Centered);
    let dead = match_dead_take_point(&p, &ctx, Player::Zero).unwrap();
    assert!(close(dead, 0.4345, 1e-4), "{dead}");
    let levels = match_cube_points(&p, &ctx).unwrap();
    assert!(
        close(levels[1].take_point(Player::Zero), 0.3776, 1e-4),
        "{:?}",
        levels
    );
    assert!(
        close(levels[0].take_point(Player::One), 0.3011, 1e-4),
        "{:?}",
        levels
    );
    assert!(close(0.4345 * (1.0 - 0.3776), 0.2704, 1e-4)); // the note's variant
}

/// Crawford game: no doubling, cubeless MWC, "Never double, take (dead cube)". Post-Crawford:
/// only the trailer doubles; at 2-away the leader's free drop.
#[test]
fn crawford_and_post_crawford() {
    let met = MatchEquityTable::kazaross_xg2();
    let p = Probabilities {
        win: 0.55,
        win_gammon: 0.1,
        ..Probabilities::default()
    };
    let crawford = CubeContext::new_match(
        met,
        MatchScore::new(7, [6, 3], true),
        Player::One,
        1,
        Ownership::Centered,
    );
    assert!(!crawford.can_double());
    assert!(!crawford.cube_is_live());
    assert_eq!(cubeful_mwc(&p, &crawford), cubeless_mwc(&p, &crawford));
    let d = cube_decision(&p, &crawford);
    assert_eq!(d.action, CubeAction::NoDoubleDeadCube);
    assert_eq!(d.action.text(), "Never double, take (dead cube)");

    // Post-Crawford, 6-5 to 7: the leader (player 0) may not double, the trailer may.
    let score = MatchScore::new(7, [6, 5], false);
    let leader = CubeContext::new_match(met, score, Player::Zero, 1, Ownership::Centered);
    assert!(!leader.can_double());
    let trailer = leader.swapped();
    assert!(trailer.can_double());
    // The trailer at 2-away: passing gives double match point (0.5), taking plays the game for the
    // match. With 55% the leader should drop (his free drop); with 45% take.
    let race = |w: f32| Probabilities {
        win: w,
        ..Probabilities::default()
    };
    let d = cube_decision(&race(0.55), &trailer);
    assert!(close(d.double_take.into(), (2.0 * 0.55 - 0.5) / 0.5, 1e-5));
    assert_eq!(d.action, CubeAction::DoublePass);
    let d = cube_decision(&race(0.45), &trailer);
    assert_eq!(d.action, CubeAction::DoubleTake);
    assert_eq!(d.action.response(), Response::Take);
}

/// A free redouble (`cube::FreeRedouble`): at 2-away/3-away the leader's double hands the
/// trailer a recube to 4 that costs the trailer nothing (any win by the leader wins the match
/// at 2 already), so the trailer gives it at once and the leader's double/take is worth what
/// the dead 4-cube gives him. GNU Backgammon's 0-ply (which has no such rule) and our 0-ply
/// before it agree on no double (+0.721, gnubg +0.720) and double/take (+0.660, gnubg +0.659)
/// for gnubg's own chances of issue 14's position `s5zgATCc/RwAQA:MAGgADAAEAAE`; its 2-ply and
/// our cubeful rollout put double/take 0.3 below no double.
#[test]
fn a_free_recube_is_given_at_once() {
    let met = MatchEquityTable::kazaross_xg2();
    let score = MatchScore::new(5, [3, 2], false);
    let p = Probabilities {
        win: 0.680,
        win_gammon: 0.261,
        win_backgammon: 0.031,
        lose_gammon: 0.048,
        lose_backgammon: 0.0,
    };
    let ctx = CubeContext::new_match(met, score, Player::Zero, 1, Ownership::Centered)
        .with_efficiency(0.68);
    let d = cube_decision(&p, &ctx);
    // No double is Janowski's, as before (nobody holds a free redouble at cube 1).
    assert!(close(d.no_double.into(), 0.721, 0.001), "{}", d.no_double);
    // Double/take: O wins the match with any win; X wins it with any win once he has recubed
    // (O takes: 68% is far above his take point).
    let doubled = ctx.doubled();
    let dead_four = cubeless_mwc(&p, &CubeContext { cube: 4, ..doubled }).unwrap();
    assert!(close(dead_four.into(), 0.680, 1e-6));
    assert_eq!(cubeful_mwc(&p, &doubled), Some(dead_four));
    assert!(close(
        d.double_take.into(),
        ctx.mwc_to_equity(dead_four).unwrap().into(),
        1e-5
    ));
    assert!(d.no_double - d.double_take > 0.25, "{d:?}");
    assert_eq!(d.action, CubeAction::NoDoubleTake);
    // The same from X's side, X on roll owning the 2-cube: the recube is his to give now, so his
    // position is worth at least giving it, and his "no redouble" is still Janowski's.
    let x = doubled.swapped();
    let value = cubeful_mwc(&p.invert(), &x).unwrap();
    assert!(close(value.into(), 1.0 - 0.680, 1e-5), "{value}");
    let dx = cube_decision(&p.invert(), &x);
    assert!(dx.double_take > dx.no_double, "{dx:?}");
    assert_eq!(dx.action, CubeAction::RedoubleTake);
    // Far behind, X is too good to recube: he plays on for the gammon his 2-cube already makes
    // the match, and O's value is Janowski's, not less.
    let far_behind = Probabilities {
        win: 0.15,
        win_gammon: 0.02,
        win_backgammon: 0.0,
        lose_gammon: 0.6,
        lose_backgammon: 0.1,
    };
    let value = cubeful_mwc(
        &far_behind,
        &CubeContext::new_match(met, score, Player::Zero, 2, Ownership::Opponent)
            .with_efficiency(0.68),
    )
    .unwrap();
    let pass = met.mwc_after(&score, Player::Zero, Player::One, 2) as f32;
    assert!(value < pass, "{value} {pass}");
}

/// Post-Crawford the trailer's double is free: the leader's position is worth no more than the
/// trailer's doubling at once; the trailer's own "no double" leaves the double out.
#[test]
fn post_crawford_the_trailer_doubles_at_once() {
    let met = MatchEquityTable::kazaross_xg2();
    // 7-point match, 6-3: the leader (player 0) 1-away, the trailer 4-away.
    let score = MatchScore::new(7, [6, 3], false);
    let leader = CubeContext::new_match(met, score, Player::Zero, 1, Ownership::Centered)
        .with_efficiency(0.68);
    let p = Probabilities {
        win: 0.5,
        win_gammon: 0.1,
        lose_gammon: 0.1,
        ..Probabilities::default()
    };
    // The trailer doubles, the leader takes: the game is for the match for the leader, for 2
    // points (4 with a gammon: the match) for the trailer.
    let take = cubeless_mwc(&p, &CubeContext { cube: 2, ..leader }).unwrap();
    // Passing: the trailer scores 1 and is 3-away against the leader's 1-away.
    let pass = met.mwc_after(&score, Player::Zero, Player::One, 1) as f32;
    let value = cubeful_mwc(&p, &leader).unwrap();
    assert!(
        close(value.into(), take.max(pass).into(), 1e-6),
        "{value} {take} {pass}"
    );
    let trailer = leader.swapped();
    let d = cube_decision(&p.invert(), &trailer);
    assert!(d.double_take > d.no_double, "{d:?}");
    assert!(close(
        cubeful_mwc(&p.invert(), &trailer).unwrap().into(),
        1.0 - f64::from(value),
        1e-5
    ));
}

/// Dead cubes in match play: once both players win the match with the current cube, the cube
/// is dead, and so at 2-away/2-away.
#[test]
fn dead_cubes() {
    let met = MatchEquityTable::kazaross_xg2();
    let p = Probabilities {
        win: 0.6,
        win_gammon: 0.2,
        ..Probabilities::default()
    };
    let two_two = CubeContext::new_match(
        met,
        MatchScore::new(5, [3, 3], false),
        Player::Zero,
        1,
        Ownership::Centered,
    );
    assert!(!two_two.cube_is_live());
    assert!(two_two.can_double());
    assert_eq!(cubeful_mwc(&p, &two_two), cubeless_mwc(&p, &two_two));
    let dead = CubeContext::new_match(
        met,
        MatchScore::new(5, [2, 3], false),
        Player::Zero,
        4,
        Ownership::OnRoll,
    );
    assert!(!dead.cube_is_live());
    assert!(!dead.can_double());
    assert_eq!(
        cube_decision(&p, &dead).action,
        CubeAction::NoRedoubleDeadCube
    );
}

/// Symmetry: what one player gains the other loses, for every cube position, in money and match
/// play (Kazaross-XG2 is symmetric).
#[test]
fn cubeful_equities_are_antisymmetric() {
    let met = MatchEquityTable::kazaross_xg2();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(3000));
    let strategy = (
        0.02f32..0.98,
        0.0f32..1.0,
        0.0f32..1.0,
        0.0f32..1.0,
        0.0f32..1.0,
        0u16..9,
        0u16..9,
        0usize..3,
        0u32..3,
    );
    runner
        .run(&strategy, |(win, g1, b1, g2, b2, s0, s1, owner, log)| {
            let wg = win * g1 * 0.6;
            let lg = (1.0 - win) * g2 * 0.6;
            let p = Probabilities {
                win,
                win_gammon: wg,
                win_backgammon: wg * b1 * 0.3,
                lose_gammon: lg,
                lose_backgammon: lg * b2 * 0.3,
            };
            let owner = [Ownership::Centered, Ownership::OnRoll, Ownership::Opponent][owner];
            let cube = 1 << log;
            let money = CubeContext::money(cube, owner);
            let a = cubeful_equity(&p, &money);
            let b = cubeful_equity(&p.invert(), &money.swapped());
            prop_assert!((a + b).abs() < 1e-4, "money {a} {b}");
            let score = MatchScore::new(9, [s0, s1], false);
            let ctx = CubeContext::new_match(met, score, Player::Zero, cube, owner);
            let a = cubeful_mwc(&p, &ctx).unwrap();
            let b = cubeful_mwc(&p.invert(), &ctx.swapped()).unwrap();
            prop_assert!((a + b - 1.0).abs() < 1e-4, "match {a} {b} at {s0}-{s1}");
            prop_assert!((0.0..=1.0).contains(&a));
            Ok(())
        })
        .unwrap();
}
