//! The GTK widgets, one file each beside its `.ui` template.

pub mod analysis_pane;
pub mod board;
pub mod dice_dialog;
pub mod edit_bar;
pub mod equity_graph;
pub mod hint_window;
pub mod id_bar;
pub mod new_match_dialog;
pub mod preferences;
pub mod record_pane;
pub mod resign_dialog;
pub mod result_dialog;
pub mod statistics_window;
pub mod temperature_window;
pub mod tutor_dialog;
pub mod window;

use cubeful_engine::search::Level;
use gtk::subclass::widget::WidgetClassExt;

pub use crate::session::level_name;

/// A string list of the level names, weakest first (for drop-downs and combo rows).
pub fn level_list() -> gtk::StringList {
    let names: Vec<String> = Level::ALL.iter().map(|&l| level_name(l)).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    gtk::StringList::new(&refs)
}

/// The position of `level` in [`level_list`].
pub fn level_index(level: Level) -> u32 {
    Level::ALL.iter().position(|&l| l == level).unwrap_or(0) as u32
}

/// The level at `index` of [`level_list`].
pub fn level_at(index: u32) -> Level {
    Level::ALL
        .get(index as usize)
        .copied()
        .unwrap_or(Level::Expert)
}

/// Lets Escape close the windows of a class, as in GNOME's dialogs and utility windows (call it
/// in the class's `class_init`).
pub fn close_on_escape(klass: &mut impl WidgetClassExt) {
    klass.add_binding_action(
        gtk::gdk::Key::Escape,
        gtk::gdk::ModifierType::empty(),
        "window.close",
    );
}
