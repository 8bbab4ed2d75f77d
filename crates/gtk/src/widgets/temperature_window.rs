//! The temperature map window (manual: "show temperature map"): for the position on the board
//! before the roll, the 6×6 grid of the rolls of the player on roll (rows the first die,
//! columns the second; a non-double shows in both of its cells, as GNU Backgammon shows it),
//! each cell with the roll, its best play and the equity after it, shaded from white (the worst
//! roll) to red (the best), and the average. For a cube decision it shows two maps, switched
//! in the header bar: no double and double/take, on one colour scale. A level chooser sets the
//! lookahead of each roll's play.
//!
//! The window only displays: the maps are the engine's (`analysis::temperature`), computed on
//! the job pool by `widgets/window/temperature.rs`, with progress and a Cancel button here.

use std::cell::{Cell, RefCell};

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::analysis::temperature::TemperatureMap;
use gtk::glib;

use crate::i18n::{gettext, gettext_f};
use crate::temperature_view::{average_text, cell_view, heat_css, Maps};
use crate::widgets::analysis_pane::{level_label, LEVEL_PLIES};

type LevelHandler = Box<dyn Fn(u8)>;
type Handler = Box<dyn Fn()>;

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "temperature_window.ui")]
    pub struct TemperatureWindow {
        #[template_child]
        pub window_title: TemplateChild<adw::WindowTitle>,
        #[template_child]
        pub level_dropdown: TemplateChild<gtk::DropDown>,
        #[template_child]
        pub map_switcher: TemplateChild<gtk::StackSwitcher>,
        #[template_child]
        pub stack: TemplateChild<gtk::Stack>,
        #[template_child]
        pub progress: TemplateChild<gtk::ProgressBar>,
        #[template_child]
        pub cancel_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub message_page: TemplateChild<adw::StatusPage>,
        #[template_child]
        pub again_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub map_stack: TemplateChild<gtk::Stack>,
        #[template_child]
        pub first_box: TemplateChild<gtk::Box>,
        #[template_child]
        pub second_box: TemplateChild<gtk::Box>,
        /// The rolls done and to do while computing.
        pub done: Cell<(u64, u64)>,
        pub on_level: RefCell<Vec<LevelHandler>>,
        pub on_cancel: RefCell<Vec<Handler>>,
        pub on_again: RefCell<Vec<Handler>>,
    }

    impl std::fmt::Debug for TemperatureWindow {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("TemperatureWindow").finish_non_exhaustive()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for TemperatureWindow {
        const NAME: &'static str = "CubefulTemperatureWindow";
        type Type = super::TemperatureWindow;
        type ParentType = adw::Window;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
            crate::widgets::close_on_escape(klass);
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for TemperatureWindow {
        fn constructed(&self) {
            self.parent_constructed();
            let obj = self.obj();
            let names: Vec<String> = LEVEL_PLIES.iter().map(|&p| level_label(p)).collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            self.level_dropdown
                .set_model(Some(&gtk::StringList::new(&refs)));
            self.cancel_button.connect_clicked(glib::clone!(
                #[weak]
                obj,
                move |_| {
                    for f in obj.imp().on_cancel.borrow().iter() {
                        f();
                    }
                }
            ));
            self.again_button.connect_clicked(glib::clone!(
                #[weak]
                obj,
                move |_| {
                    for f in obj.imp().on_again.borrow().iter() {
                        f();
                    }
                }
            ));
            install_css();
        }
    }

    impl WidgetImpl for TemperatureWindow {}
    impl WindowImpl for TemperatureWindow {}
    impl AdwWindowImpl for TemperatureWindow {}
}

glib::wrapper! {
    /// The temperature map window.
    pub struct TemperatureWindow(ObjectSubclass<imp::TemperatureWindow>)
        @extends adw::Window, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native,
                    gtk::Root, gtk::ShortcutManager;
}

/// Adds the cells' colours to the display once.
fn install_css() {
    thread_local! {
        static INSTALLED: Cell<bool> = const { Cell::new(false) };
    }
    if INSTALLED.with(|i| i.replace(true)) {
        return;
    }
    let Some(display) = gtk::gdk::Display::default() else {
        return;
    };
    let provider = gtk::CssProvider::new();
    provider.load_from_data(&heat_css());
    gtk::style_context_add_provider_for_display(
        &display,
        &provider,
        gtk::STYLE_PROVIDER_PRIORITY_APPLICATION,
    );
}

impl TemperatureWindow {
    /// A temperature map window beside `parent`, computing plays at `plies`.
    pub fn new(parent: &impl IsA<gtk::Window>, plies: u8) -> TemperatureWindow {
        let window: TemperatureWindow = glib::Object::builder()
            .property("transient-for", parent)
            .build();
        let imp = window.imp();
        let index = LEVEL_PLIES.iter().position(|&p| p == plies).unwrap_or(0);
        imp.level_dropdown.set_selected(index as u32);
        imp.level_dropdown.connect_selected_notify(glib::clone!(
            #[weak]
            window,
            move |_| {
                let plies = window.plies();
                for f in window.imp().on_level.borrow().iter() {
                    f(plies);
                }
            }
        ));
        window
    }

    /// The lookahead chosen for each roll's play.
    pub fn plies(&self) -> u8 {
        let i = self.imp().level_dropdown.selected() as usize;
        LEVEL_PLIES.get(i).copied().unwrap_or(0)
    }

    /// Calls `f` when the user picks another level.
    pub fn connect_level_changed<F: Fn(u8) + 'static>(&self, f: F) {
        self.imp().on_level.borrow_mut().push(Box::new(f));
    }

    /// Calls `f` when the user cancels the map being computed.
    pub fn connect_cancel<F: Fn() + 'static>(&self, f: F) {
        self.imp().on_cancel.borrow_mut().push(Box::new(f));
    }

    /// Calls `f` when the user asks for the map again after cancelling.
    pub fn connect_again<F: Fn() + 'static>(&self, f: F) {
        self.imp().on_again.borrow_mut().push(Box::new(f));
    }

    /// What the map is of (shown under the title).
    pub fn set_subtitle(&self, text: &str) {
        self.imp().window_title.set_subtitle(text);
    }

    /// The engine is working: `done` of `total` rolls.
    pub fn set_computing(&self, done: u64, total: u64) {
        let imp = self.imp();
        imp.done.set((done, total));
        imp.map_switcher.set_visible(false);
        let fraction = if total == 0 {
            0.0
        } else {
            done as f64 / total as f64
        };
        imp.progress.set_fraction(fraction.clamp(0.0, 1.0));
        imp.progress.set_text(Some(&gettext_f(
            "{} of {} rolls",
            &[&done.to_string(), &total.to_string()],
        )));
        imp.stack.set_visible_child_name("computing");
    }

    /// Shows a message instead of a map (`again`: offer to compute it again).
    pub fn set_message(&self, title: &str, description: &str, again: bool) {
        let imp = self.imp();
        imp.map_switcher.set_visible(false);
        imp.message_page.set_title(title);
        imp.message_page.set_description(Some(description));
        imp.again_button.set_visible(again);
        imp.stack.set_visible_child_name("message");
    }

    /// Shows finished maps.
    pub fn set_maps(&self, maps: &Maps) {
        let imp = self.imp();
        let range = maps.range();
        let all = maps.all();
        for (i, target) in [&*imp.first_box, &*imp.second_box].into_iter().enumerate() {
            while let Some(child) = target.first_child() {
                target.remove(&child);
            }
            if let Some(map) = all.get(i) {
                fill_map(target, map, range);
            }
        }
        let cube = all.len() > 1;
        imp.map_switcher.set_visible(cube);
        imp.map_stack.page(&*imp.second_box).set_visible(cube);
        imp.map_stack.set_visible_child_name("no_double");
        imp.stack.set_visible_child_name("maps");
    }

    /// The page shown: "computing", "message" or "maps".
    pub fn page(&self) -> String {
        self.imp()
            .stack
            .visible_child_name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    }

    /// The map shown: "no_double" (or the only one) or "double_take".
    pub fn map_page(&self) -> String {
        self.imp()
            .map_stack
            .visible_child_name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    }

    /// Shows the map `name` ("no_double" or "double_take").
    pub fn show_map(&self, name: &str) {
        self.imp().map_stack.set_visible_child_name(name);
    }

    /// The rolls done and to do of the map being computed.
    pub fn progress(&self) -> (u64, u64) {
        self.imp().done.get()
    }
}

/// Fills `target` with the grid of `map` (coloured on `range`) and its average.
fn fill_map(target: &gtk::Box, map: &TemperatureMap, range: (f32, f32)) {
    let grid = gtk::Grid::builder()
        .row_spacing(4)
        .column_spacing(4)
        .halign(gtk::Align::Center)
        .build();
    for die in 1..=6u8 {
        let top = gtk::Label::new(Some(&die.to_string()));
        top.add_css_class("heading");
        top.add_css_class("dim-label");
        grid.attach(&top, i32::from(die), 0, 1, 1);
        let side = gtk::Label::new(Some(&die.to_string()));
        side.add_css_class("heading");
        side.add_css_class("dim-label");
        side.set_margin_end(4);
        grid.attach(&side, 0, i32::from(die), 1, 1);
    }
    for (i, row) in map.grid().iter().enumerate() {
        for (j, entry) in row.iter().enumerate() {
            let (d1, d2) = (i as u8 + 1, j as u8 + 1);
            let view = cell_view(d1, d2, entry, range);
            let cell = gtk::Box::new(gtk::Orientation::Vertical, 1);
            cell.add_css_class("temperature-cell");
            cell.add_css_class(view.heat_class);
            cell.set_width_request(112);
            cell.set_tooltip_text(Some(&view.tooltip));
            let roll = gtk::Label::new(Some(&view.roll));
            roll.add_css_class("heading");
            roll.set_xalign(0.0);
            let play = gtk::Label::new(Some(&view.play));
            play.add_css_class("caption");
            play.set_xalign(0.0);
            play.set_ellipsize(gtk::pango::EllipsizeMode::End);
            play.set_max_width_chars(16);
            let equity = gtk::Label::new(Some(&view.equity));
            equity.add_css_class("numeric");
            equity.add_css_class("caption-heading");
            equity.set_xalign(1.0);
            cell.append(&roll);
            cell.append(&play);
            cell.append(&equity);
            grid.attach(&cell, i32::from(d2), i32::from(d1), 1, 1);
        }
    }
    target.append(&grid);
    let average = gtk::Label::new(Some(&average_text(map)));
    average.add_css_class("title-4");
    average.set_margin_top(6);
    target.append(&average);
    let legend = gtk::Label::new(Some(&gettext(
        "Rows: the first die; columns: the second. Red: the best rolls; white: the worst. Equities after each roll's best play.",
    )));
    legend.add_css_class("dim-label");
    legend.add_css_class("caption");
    legend.set_wrap(true);
    legend.set_justify(gtk::Justification::Center);
    target.append(&legend);
}
