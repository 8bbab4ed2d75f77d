//! The pruning nets: small nets on the base inputs only, used inside the search to pre-select the
//! plays of a roll before the full nets judge the few best (docs/ENGINE.md §Pruning nets).
//!
//! There is one pruning net per class of full net (contact, crashed, race), each a [`Net`] of the
//! usual file format with [`BASE_INPUTS`] inputs (the base encoding of both sides, opponent
//! first) and a few hidden units. They are trained by distillation: their targets are the full
//! nets' 0-ply outputs (docs/TRAINING.md §Pruning nets). A pruning net's output is never shown
//! or stored; it only orders candidate plays.
//!
//! The files are `prune-contact.net`, `prune-crashed.net` and `prune-race.net` beside the full
//! nets; the defaults in `data/nets/` are compiled into the program.

use std::path::Path;

use crate::eval::inputs::{BAR_CODE, BASE_INPUTS, BASE_INPUTS_PER_SIDE, INPUT_VERSION};
use crate::eval::nn::{Net, NetClass, NetFileError, OUTPUTS};
use crate::rules::position::{Position, BAR, OFF};

/// The three pruning nets, one per class of full net.
#[derive(Clone, Debug)]
pub struct PruneNets {
    pub contact: Net,
    pub crashed: Net,
    pub race: Net,
}

/// The file name of the pruning net for `class` in a nets folder (`prune-contact.net`, …).
pub fn file_name(class: NetClass) -> String {
    format!("prune-{}.net", class.name())
}

/// Default pruning nets (docs/TRAINING.md §Pruning nets), compiled into the binary.
const EMBEDDED: [(&str, &[u8]); 3] = [
    (
        "prune-contact.net",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/nets/prune-contact.net"
        )),
    ),
    (
        "prune-crashed.net",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/nets/prune-crashed.net"
        )),
    ),
    (
        "prune-race.net",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/nets/prune-race.net"
        )),
    ),
];

impl PruneNets {
    /// The pruning nets compiled into the program (from `data/nets/`).
    pub fn embedded() -> PruneNets {
        let load = |(name, bytes): (&str, &[u8]), class: NetClass| {
            let net = Net::from_bytes(bytes)
                .unwrap_or_else(|e| panic!("embedded net {name} is broken: {e}"));
            net.check(Path::new(name), class, BASE_INPUTS, INPUT_VERSION)
                .unwrap_or_else(|e| panic!("embedded net {name}: {e}"));
            net
        };
        PruneNets {
            contact: load(EMBEDDED[0], NetClass::Contact),
            crashed: load(EMBEDDED[1], NetClass::Crashed),
            race: load(EMBEDDED[2], NetClass::Race),
        }
    }

    /// Loads the three pruning nets from `dir`: `None` when none of their files is there (a
    /// folder of full nets only), an error when some are missing or any is not a pruning net of
    /// its class.
    pub fn load_dir(dir: &Path) -> Result<Option<PruneNets>, NetFileError> {
        if NetClass::ALL
            .iter()
            .all(|&c| !dir.join(file_name(c)).exists())
        {
            return Ok(None);
        }
        let load = |class: NetClass| {
            Net::load(
                &dir.join(file_name(class)),
                class,
                BASE_INPUTS,
                INPUT_VERSION,
            )
        };
        Ok(Some(PruneNets {
            contact: load(NetClass::Contact)?,
            crashed: load(NetClass::Crashed)?,
            race: load(NetClass::Race)?,
        }))
    }

    /// Saves the three pruning nets into `dir` (atomically, file by file).
    pub fn save_dir(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for class in NetClass::ALL {
            self.net(class).save(&dir.join(file_name(class)))?;
        }
        Ok(())
    }

    /// The pruning net for the positions of a full net's class.
    pub fn net(&self, class: NetClass) -> &Net {
        match class {
            NetClass::Contact => &self.contact,
            NetClass::Crashed => &self.crashed,
            NetClass::Race => &self.race,
        }
    }

    /// The pruning net for a class, mutable (training).
    pub fn net_mut(&mut self, class: NetClass) -> &mut Net {
        match class {
            NetClass::Contact => &mut self.contact,
            NetClass::Crashed => &mut self.crashed,
            NetClass::Race => &mut self.race,
        }
    }

    /// The largest scratch space of the three (what [`PruneNets::forward`] needs).
    pub fn max_hidden(&self) -> usize {
        NetClass::ALL
            .iter()
            .map(|&c| self.net(c).scratch_len())
            .max()
            .unwrap_or(0)
    }

    /// The raw outputs of the pruning net of `class` for `position` (player on roll). `hidden`
    /// is scratch space of at least [`PruneNets::max_hidden`] values.
    ///
    /// The same as [`Net::forward`] on [`crate::eval::inputs::base_inputs`], bit for bit,
    /// computed straight from the board: the hidden layer starts at its biases and adds, for
    /// every occupied slot, the rows of its (at most four) non-zero inputs.
    pub fn forward(
        &self,
        class: NetClass,
        position: &Position,
        hidden: &mut [f32],
    ) -> [f32; OUTPUTS] {
        let net = self.net(class);
        // The non-zero inputs in increasing order: the opponent's slots (its own points 1 to 24,
        // then its bar), then the player's.
        let mut inputs = SparseInputs::new();
        let b = position.board();
        // The opponent's point k (1..=24, from its side) is the board's point 25 − k.
        for k in 1..=24 {
            if b[25 - k] < 0 {
                inputs.point(4 * (k - 1), b[25 - k]);
            }
        }
        if b[OFF] < 0 {
            inputs.bar(4 * 24, b[OFF]);
        }
        for (k, &c) in b.iter().enumerate().take(25).skip(1) {
            if c > 0 {
                inputs.point(BASE_INPUTS_PER_SIDE + 4 * (k - 1), c);
            }
        }
        if b[BAR] > 0 {
            inputs.bar(BASE_INPUTS_PER_SIDE + 4 * 24, b[BAR]);
        }
        let (index, value) = inputs.as_slices();
        net.hidden_sparse(index, value, hidden);
        net.upper_layers(hidden)
    }
}

/// The non-zero base inputs of a position, in the order they are added: at most 16 slots of a
/// side are occupied, each with at most four non-zero codes.
struct SparseInputs {
    index: [u16; 2 * 16 * 4],
    value: [f32; 2 * 16 * 4],
    len: usize,
}

impl SparseInputs {
    fn new() -> SparseInputs {
        SparseInputs {
            index: [0; 2 * 16 * 4],
            value: [0.0; 2 * 16 * 4],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, input: usize, x: f32) {
        self.index[self.len] = input as u16;
        self.value[self.len] = x;
        self.len += 1;
    }

    /// A point's slot from its first input, with `checkers` (either sign): its
    /// `POINT_CODE` has one non-zero input for one to three checkers, two for more.
    #[inline(always)]
    fn point(&mut self, first: usize, checkers: i8) {
        let n = checkers.unsigned_abs().min(15);
        if n <= 3 {
            self.push(first + usize::from(n) - 1, 1.0);
        } else {
            self.push(first + 2, 1.0);
            self.push(first + 3, f32::from(n - 3) * 0.5);
        }
    }

    /// The bar's slot ([`BAR_CODE`]).
    fn bar(&mut self, first: usize, checkers: i8) {
        let n = usize::from(checkers.unsigned_abs()).min(15);
        for (j, &x) in BAR_CODE[n].iter().enumerate() {
            if x != 0.0 {
                self.push(first + j, x);
            }
        }
    }

    fn as_slices(&self) -> (&[u16], &[f32]) {
        (&self.index[..self.len], &self.value[..self.len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::inputs::base_inputs;
    use crate::rules::dice::Dice;
    use crate::rules::movegen::legal_moves;
    use cubeful_testkit::ScratchDir;

    /// Positions of a few random games (both sides on roll).
    fn positions() -> Vec<Position> {
        let mut seed = 7u64;
        let mut next = |m: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % m
        };
        let mut out = Vec::new();
        for _ in 0..20 {
            let mut p = Position::starting();
            while p.result().is_none() {
                out.push(p);
                let d = Dice::new(next(6) as u8 + 1, next(6) as u8 + 1).unwrap();
                let moves = legal_moves(&p, d);
                let q = moves[next(moves.len())].position;
                if q.result().is_some() {
                    break;
                }
                p = q.swap();
            }
        }
        out
    }

    #[test]
    fn embedded_pruning_nets_load_with_their_shapes() {
        let nets = PruneNets::embedded();
        let full = crate::eval::Nets::embedded();
        for class in NetClass::ALL {
            let net = nets.net(class);
            assert_eq!(net.class(), class);
            assert_eq!(net.inputs(), BASE_INPUTS);
            // Small beside the full nets (`train prune` makes at most 128 units).
            assert!((1..=128).contains(&net.hidden()), "{}", net.hidden());
            assert!(net.hidden() < full.net(class).hidden());
            assert!(net.trained > 0, "{class:?} pruning net was never trained");
        }
    }

    #[test]
    fn direct_forward_equals_the_net_on_base_inputs() {
        let nets = PruneNets::embedded();
        let mut hidden = vec![0.0; nets.max_hidden()];
        let mut scratch = vec![0.0; nets.max_hidden()];
        let mut x = [0.0f32; BASE_INPUTS];
        let all = positions();
        assert!(all.len() > 500);
        for p in all {
            base_inputs(&p, &mut x);
            for class in NetClass::ALL {
                let fast = nets.forward(class, &p, &mut hidden);
                let mut slow = [0.0f32; OUTPUTS];
                nets.net(class).forward(&x, &mut scratch, &mut slow);
                for (a, b) in fast.iter().zip(slow) {
                    assert_eq!(
                        a.to_bits(),
                        b.to_bits(),
                        "{p:?} {class:?}: {fast:?} vs {slow:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn base_inputs_are_the_first_inputs_of_the_contact_net() {
        let mut full = [0.0f32; crate::eval::inputs::CONTACT_INPUTS];
        let mut base = [0.0f32; BASE_INPUTS];
        for p in positions().into_iter().step_by(7) {
            crate::eval::inputs::contact_inputs(&p, &mut full);
            base_inputs(&p, &mut base);
            assert_eq!(&full[..BASE_INPUTS], &base[..]);
        }
    }

    #[test]
    fn loading_a_folder_without_pruning_nets_gives_none_and_a_wrong_file_an_error() {
        let dir = ScratchDir::new("prune");
        assert!(PruneNets::load_dir(&dir).unwrap().is_none());
        let nets = PruneNets::embedded();
        nets.save_dir(&dir).unwrap();
        let back = PruneNets::load_dir(&dir).unwrap().unwrap();
        assert_eq!(back.contact, nets.contact);
        assert_eq!(back.race, nets.race);
        // A full-size contact net is not a pruning net.
        crate::eval::Nets::embedded()
            .contact
            .save(&dir.join(file_name(NetClass::Contact)))
            .unwrap();
        let err = PruneNets::load_dir(&dir).unwrap_err().to_string();
        assert!(err.contains("prune-contact.net"), "{err}");
        // One file missing.
        std::fs::remove_file(dir.join(file_name(NetClass::Race))).unwrap();
        std::fs::remove_file(dir.join(file_name(NetClass::Contact))).unwrap();
        let err = PruneNets::load_dir(&dir).unwrap_err().to_string();
        assert!(err.contains("prune-contact.net"), "{err}");
    }
}
