//! The board without GTK: layout and hit testing ([`geometry`]), the view-model ([`model`], which
//! turns clicks and drags into steps of the engine's move assembly), the scene it produces ([`scene`]), the
//! Cairo renderer ([`render`]) and its cached bitmaps ([`sprites`]). The widget in [`crate::widgets::board`] only forwards input
//! here and paints the scene.

pub mod export;
pub mod geometry;
pub mod model;
pub mod render;
pub mod scene;
pub mod sprites;

pub use cubeful_engine::rules::assembly::{AssemblyError, DieChoice, MoveAssembly};
pub use geometry::{CubePlace, Geometry, Hit, Seat, Slot};
pub use model::{Action, BoardModel, Button, Display};
pub use scene::{Colours, Rgb, Scene};
