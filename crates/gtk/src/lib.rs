//! Cubeful's GTK 4 desktop application (binary `cubeful`).
//!
//! ```text
//! CubefulApplication (application.rs: adw::Application; shortcuts, settings, about)
//! └── CubefulWindow (widgets/window.rs + window.ui: header bar, menu, status, match flow)
//!     ├── CubefulBoard (widgets/board.rs: the Cairo-drawn board)
//!     │     ├── widgets/board/input.rs      gestures → board::BoardModel
//!     │     ├── widgets/board/rendering.rs  snapshot → board::render::draw
//!     │     └── widgets/board/animation.rs  frame clock → BoardModel::advance
//!     ├── NewMatchDialog (widgets/new_match_dialog.rs + .ui)
//!     ├── HintWindow (widgets/hint_window.rs + .ui)
//!     └── PreferencesWindow (widgets/preferences.rs + .ui)
//! ```
//!
//! Below the widgets, without GTK and tested without a display:
//!
//! * [`board`]: layout and hit testing, move assembly from clicks and drags (legality from the
//!   engine's move generator), the view-model, the scene and the Cairo renderer;
//! * [`session`]: a match being played — the engine's `game::Game` plus seats, names and the
//!   translated texts of what happens;
//! * [`settings`]: the user's settings as RON in the config folder;
//! * [`worker`]: the engine's worker threads (bot decisions, hints) and their channels.
//!
//! The GUI never computes backgammon itself: the rules and the match flow are the engine's
//! (`cubeful_engine`), and every evaluation runs on a worker thread whose answer comes back
//! to the main loop through a channel.

pub mod application;
pub mod board;
pub mod config;
pub mod i18n;
pub mod session;
pub mod settings;
pub mod widgets;
pub mod worker;
