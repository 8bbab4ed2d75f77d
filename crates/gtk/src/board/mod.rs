//! The board without GTK: layout and hit testing ([`geometry`]), move assembly from clicks and
//! drags ([`assembly`]), the view-model ([`model`]), the scene it produces ([`scene`]) and the
//! Cairo renderer ([`render`]). The widget in [`crate::widgets::board`] only forwards input
//! here and paints the scene.

pub mod assembly;
pub mod geometry;
pub mod model;
pub mod render;
pub mod scene;

pub use assembly::{AssemblyError, DieChoice, MoveAssembly};
pub use geometry::{CubePlace, Geometry, Hit, Seat, Slot};
pub use model::{Action, BoardModel, Button, Display};
pub use scene::{Colours, Rgb, Scene};
