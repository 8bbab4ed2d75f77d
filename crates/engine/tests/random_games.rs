//! Property tests: random games played to the end by random legal moves.

use cubeful_engine::{legal_moves, notation, position_id, Dice, Position, Side};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Plays one game from the start with random dice and random legal moves; checks invariants after
/// every move and returns the number of half-moves played.
fn play_random_game(seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut position = Position::starting();
    for ply in 0..5_000 {
        let dice = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
        let moves = legal_moves(&position, dice);
        assert!(!moves.is_empty());
        // All results are distinct.
        for (i, a) in moves.iter().enumerate() {
            for b in &moves[i + 1..] {
                assert_ne!(a.position, b.position);
            }
        }
        // Every legal move, written in GNU Backgammon notation, reads back as the same move.
        for m in &moves {
            let text = notation::format_move(&position, &m.mv);
            let parsed = notation::parse_move(&position, dice, &text)
                .unwrap_or_else(|e| panic!("{text:?} with {dice} in {position:?}: {e}"));
            assert_eq!(parsed.position, m.position, "{text:?} with {dice}");
        }
        let chosen = moves[rng.gen_range(0..moves.len())];
        let next = chosen.position;
        // The resulting board passes full validation: at most 15 a side, no shared point.
        assert_eq!(Position::from_board(*next.board()), Ok(next));
        assert_eq!(next.on_board(Side::Player) + next.off(Side::Player), 15);
        assert_eq!(next.on_board(Side::Opponent) + next.off(Side::Opponent), 15);
        // The opponent loses no checkers; only hits move them, to the bar.
        assert_eq!(
            next.on_board(Side::Opponent),
            position.on_board(Side::Opponent)
        );
        let hits = next.bar(Side::Opponent) - position.bar(Side::Opponent);
        assert_eq!(
            usize::from(hits) > 0,
            next.pip_count(Side::Opponent) > position.pip_count(Side::Opponent)
        );
        // The mover advances by at most the dice, exactly by the dice unless bearing off.
        let pips = u32::from(dice.first() + dice.second()) * if dice.is_double() { 2 } else { 1 };
        let moved = position.pip_count(Side::Player) - next.pip_count(Side::Player);
        assert!(moved <= pips);
        if next.off(Side::Player) == position.off(Side::Player)
            && chosen.mv.len() == if dice.is_double() { 4 } else { 2 }
        {
            assert_eq!(moved, pips);
        }
        // Position IDs round-trip, in both orientations.
        for p in [next, next.swap()] {
            assert_eq!(position_id::decode(&position_id::encode(&p)), Ok(p));
        }
        if let Some(result) = next.result() {
            assert_eq!(result.winner, Side::Player);
            return ply + 1;
        }
        position = next.swap();
    }
    panic!("game with seed {seed} did not end within 5,000 half-moves");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(250))]

    #[test]
    fn random_games_keep_invariants_and_end(seed in any::<u64>()) {
        let plies = play_random_game(seed);
        prop_assert!(plies >= 13, "the winner needs at least 7 rolls to bear off 167 pips");
    }
}
