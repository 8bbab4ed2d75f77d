//! Cubeful's GTK 4 desktop application (binary `cubeful`).
//!
//! ```text
//! CubefulApplication (application.rs: adw::Application; shortcuts, settings, about)
//! └── CubefulWindow (widgets/window.rs + window.ui: header bar, menu, status, actions)
//!     ├── GtkPaned: the board, and the side pane beside it (hidden while empty)
//!     │   └── CubefulBoard (widgets/board.rs: the Cairo-drawn board)
//!     │         ├── widgets/board/input.rs      gestures → board::BoardModel
//!     │         ├── widgets/board/rendering.rs  snapshot → board::render::draw
//!     │         └── widgets/board/animation.rs  frame clock → BoardModel::advance
//!     ├── NewMatchDialog (widgets/new_match_dialog.rs + .ui)
//!     ├── ResignDialog, DiceDialog, ResultDialog (widgets/*_dialog.rs + .ui)
//!     ├── HintWindow (widgets/hint_window.rs + .ui)
//!     └── PreferencesWindow (widgets/preferences.rs + .ui)
//! ```
//!
//! Below the widgets, without GTK and tested without a display:
//!
//! * [`controller`]: the match flow of the window — one state (human to act, bot thinking,
//!   animating, dice to enter, game over…), one method per input, effects for the window
//!   to carry out;
//! * [`board`]: layout and hit testing, move assembly from clicks and drags (legality from the
//!   engine's move generator), the view-model, the scene and the Cairo renderer;
//! * [`session`]: a match being played — the engine's `game::Game` plus seats, names and the
//!   translated texts of what happens;
//! * [`jobs`]: the pool of worker threads doing the engine's work (bot decisions, hints, and
//!   later rollouts and analyses) with cancellation and progress;
//! * [`match_model`]: what the window publishes for its labels and panes (GObject properties
//!   and list models);
//! * [`document`]: the match's file, unsaved changes, the title, the automatic save and
//!   resuming it after a crash, recent files;
//! * [`settings`]: the user's settings as RON in the config folder.
//!
//! The GUI never computes backgammon itself: the rules and the match flow are the engine's
//! (`cubeful_engine`), and every evaluation runs on a worker thread whose answer comes back
//! to the main loop through a channel.

pub mod analysis_view;
pub mod application;
pub mod board;
pub mod config;
pub mod controller;
pub mod document;
pub mod edit;
pub mod equity_graph_data;
pub mod format;
pub mod i18n;
pub mod jobs;
pub mod match_model;
pub mod review;
pub mod session;
pub mod settings;
pub mod temperature_view;
pub mod widgets;
