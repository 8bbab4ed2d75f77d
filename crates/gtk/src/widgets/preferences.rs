//! The preferences window: names, the computer's level, animation, forced moves, starting
//! the next game, and the board's colours. Every change applies at once and is saved.

use std::cell::RefCell;

use adw::prelude::*;
use adw::subclass::prelude::*;
use gtk::{gdk, glib};

use crate::board::scene::{Colours, Rgb};
use crate::settings::{ColourSettings, Settings, TutorThreshold};
use crate::widgets::{level_at, level_index, level_list};

type ChangeHandler = Box<dyn Fn(&Settings)>;

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "preferences.ui")]
    pub struct PreferencesWindow {
        #[template_child]
        pub name_row: TemplateChild<adw::EntryRow>,
        #[template_child]
        pub opponent_name_row: TemplateChild<adw::EntryRow>,
        #[template_child]
        pub level_row: TemplateChild<adw::ComboRow>,
        #[template_child]
        pub animate_switch: TemplateChild<gtk::Switch>,
        #[template_child]
        pub forced_switch: TemplateChild<gtk::Switch>,
        #[template_child]
        pub next_game_switch: TemplateChild<gtk::Switch>,
        #[template_child]
        pub turn_board_switch: TemplateChild<gtk::Switch>,
        #[template_child]
        pub tutor_switch: TemplateChild<gtk::Switch>,
        #[template_child]
        pub tutor_level_row: TemplateChild<adw::ComboRow>,
        #[template_child]
        pub tutor_threshold_row: TemplateChild<adw::ComboRow>,
        #[template_child]
        pub player_colour: TemplateChild<gtk::ColorButton>,
        #[template_child]
        pub opponent_colour: TemplateChild<gtk::ColorButton>,
        #[template_child]
        pub board_colour: TemplateChild<gtk::ColorButton>,
        #[template_child]
        pub reset_colours: TemplateChild<gtk::Button>,
        /// The settings as edited.
        pub settings: RefCell<Settings>,
        pub on_changed: RefCell<Vec<ChangeHandler>>,
    }

    impl std::fmt::Debug for PreferencesWindow {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("PreferencesWindow").finish_non_exhaustive()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for PreferencesWindow {
        const NAME: &'static str = "CubefulPreferencesWindow";
        type Type = super::PreferencesWindow;
        type ParentType = adw::PreferencesWindow;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for PreferencesWindow {
        fn constructed(&self) {
            self.parent_constructed();
            self.level_row.set_model(Some(&level_list()));
            self.tutor_level_row.set_model(Some(&level_list()));
        }
    }

    impl WidgetImpl for PreferencesWindow {}
    impl WindowImpl for PreferencesWindow {}
    impl AdwWindowImpl for PreferencesWindow {}
    impl PreferencesWindowImpl for PreferencesWindow {}
}

glib::wrapper! {
    /// The preferences window.
    pub struct PreferencesWindow(ObjectSubclass<imp::PreferencesWindow>)
        @extends adw::PreferencesWindow, adw::Window, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native,
                    gtk::Root, gtk::ShortcutManager;
}

impl PreferencesWindow {
    /// A preferences window over `parent` showing `settings`.
    pub fn new(parent: Option<&gtk::Window>, settings: &Settings) -> PreferencesWindow {
        let window: PreferencesWindow = glib::Object::builder()
            .property("transient-for", parent)
            .build();
        window.load(settings);
        window.connect_signals();
        window
    }

    /// Calls `f` with the new settings after every change.
    pub fn connect_changed<F: Fn(&Settings) + 'static>(&self, f: F) {
        self.imp().on_changed.borrow_mut().push(Box::new(f));
    }

    fn load(&self, settings: &Settings) {
        let imp = self.imp();
        imp.settings.replace(settings.clone());
        imp.name_row.set_text(&settings.player_name);
        imp.opponent_name_row.set_text(&settings.opponent_name);
        imp.level_row.set_selected(level_index(settings.level()));
        imp.animate_switch.set_active(settings.animate);
        imp.forced_switch.set_active(settings.auto_forced_moves);
        imp.next_game_switch.set_active(settings.auto_next_game);
        imp.turn_board_switch.set_active(settings.turn_board);
        imp.tutor_switch.set_active(settings.tutor);
        imp.tutor_level_row
            .set_selected(level_index(settings.tutor_level()));
        imp.tutor_threshold_row
            .set_selected(settings.tutor_threshold as u32);
        self.load_colours(&settings.colours.colours());
    }

    fn load_colours(&self, c: &Colours) {
        let imp = self.imp();
        imp.player_colour.set_rgba(&to_rgba(c.checkers[0]));
        imp.opponent_colour.set_rgba(&to_rgba(c.checkers[1]));
        imp.board_colour.set_rgba(&to_rgba(c.felt));
    }

    fn connect_signals(&self) {
        let imp = self.imp();
        let changed = glib::clone!(
            #[weak(rename_to = window)]
            self,
            move || window.changed()
        );
        let c = changed.clone();
        imp.name_row.connect_changed(move |_| c());
        let c = changed.clone();
        imp.opponent_name_row.connect_changed(move |_| c());
        let c = changed.clone();
        imp.level_row.connect_selected_notify(move |_| c());
        for row in [&imp.tutor_level_row, &imp.tutor_threshold_row] {
            let c = changed.clone();
            row.connect_selected_notify(move |_| c());
        }
        for switch in [
            &imp.animate_switch,
            &imp.forced_switch,
            &imp.next_game_switch,
            &imp.turn_board_switch,
            &imp.tutor_switch,
        ] {
            let c = changed.clone();
            switch.connect_active_notify(move |_| c());
        }
        for button in [&imp.player_colour, &imp.opponent_colour, &imp.board_colour] {
            let c = changed.clone();
            button.connect_color_set(move |_| c());
        }
        imp.reset_colours.connect_clicked(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |_| {
                window.load_colours(&Colours::default());
                window.changed();
            }
        ));
    }

    /// Reads every row into the settings and tells the listeners.
    fn changed(&self) {
        let imp = self.imp();
        let settings = {
            let mut s = imp.settings.borrow_mut();
            s.player_name = imp.name_row.text().trim().to_string();
            s.opponent_name = imp.opponent_name_row.text().trim().to_string();
            s.level = level_at(imp.level_row.selected()).name().to_string();
            s.animate = imp.animate_switch.is_active();
            s.auto_forced_moves = imp.forced_switch.is_active();
            s.auto_next_game = imp.next_game_switch.is_active();
            s.turn_board = imp.turn_board_switch.is_active();
            s.tutor = imp.tutor_switch.is_active();
            s.tutor_level = level_at(imp.tutor_level_row.selected()).name().to_string();
            s.tutor_threshold = match imp.tutor_threshold_row.selected() {
                0 => TutorThreshold::Doubtful,
                2 => TutorThreshold::VeryBad,
                _ => TutorThreshold::Bad,
            };
            s.colours = ColourSettings {
                player: from_rgba(&imp.player_colour.rgba()).to_hex(),
                opponent: from_rgba(&imp.opponent_colour.rgba()).to_hex(),
                board: from_rgba(&imp.board_colour.rgba()).to_hex(),
            };
            s.clone()
        };
        for f in imp.on_changed.borrow().iter() {
            f(&settings);
        }
    }
}

fn to_rgba(c: Rgb) -> gdk::RGBA {
    gdk::RGBA::new(c.0 as f32, c.1 as f32, c.2 as f32, 1.0)
}

fn from_rgba(c: &gdk::RGBA) -> Rgb {
    Rgb(
        f64::from(c.red()),
        f64::from(c.green()),
        f64::from(c.blue()),
    )
}
