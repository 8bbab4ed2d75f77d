//! The application: keyboard shortcuts, application actions (preferences, about, quit), the
//! settings (loaded once, saved after every change) and the main window. A match file given on
//! the command line (`cubeful FILE`) arrives through GApplication's `open` (the application
//! handles opening files) and is opened in the main window.

use std::cell::RefCell;
use std::path::PathBuf;

use adw::prelude::*;
use adw::subclass::prelude::*;
use gtk::{gio, glib};

use crate::config;
use crate::i18n::gettext;
use crate::settings::{merge_preferences, Settings, SettingsError, FILE_NAME};
use crate::widgets::preferences::PreferencesWindow;
use crate::widgets::window::CubefulWindow;

/// Options from the command line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// Write the state as JSON to this file after every change (for tests).
    pub debug_state: Option<PathBuf>,
    /// Seed of the dice (for tests).
    pub seed: Option<u64>,
    /// Match files named on the command line (the first is opened).
    pub files: Vec<PathBuf>,
}

/// Keyboard shortcuts, as in GNU Backgammon (manual §4) where it has them.
const ACCELS: &[(&str, &[&str])] = &[
    ("win.new-match", &["<Control>n"]),
    ("win.open", &["<Control>o"]),
    ("win.save", &["<Control>s"]),
    ("win.save-as", &["<Control><Shift>s"]),
    ("win.roll", &["<Control>r"]),
    ("win.finish-move", &["<Control>f"]),
    ("win.undo", &["<Control>z"]),
    ("win.double", &["<Control>d"]),
    ("win.take", &["<Control>t"]),
    ("win.drop", &["<Control>p"]),
    ("win.beaver", &["<Control>b"]),
    ("win.hint", &["<Control>h"]),
    ("app.preferences", &["<Control>comma"]),
    ("app.quit", &["<Control>q"]),
    ("window.close", &["<Control>w"]),
    ("win.review-previous", &["Page_Up"]),
    ("win.review-next", &["Page_Down"]),
    ("win.review-previous-marked", &["<Control>Page_Up"]),
    ("win.review-next-marked", &["<Control>Page_Down"]),
    ("win.review-first", &["Home"]),
    ("win.review-last", &["End"]),
    ("win.review-previous-game", &["<Shift>Page_Up"]),
    ("win.review-next-game", &["<Shift>Page_Down"]),
    ("win.analyse-match", &["<Control><Shift>a"]),
    // Ctrl+E is edit mode, as in GNU Backgammon.
    ("win.edit-position", &["<Control>e"]),
    ("win.analyse-move", &["<Control><Shift>m"]),
    ("win.paste-position", &["<Control>v"]),
    ("win.statistics", &["<Control>i"]),
    ("win.equity-graph", &["<Control>g"]),
    ("win.temperature-map", &["<Control><Shift>t"]),
];

mod imp {
    use super::*;

    #[derive(Debug, Default)]
    pub struct CubefulApplication {
        pub settings: RefCell<Settings>,
        pub settings_path: RefCell<Option<PathBuf>>,
        /// A problem with the settings file, reported once the window is up.
        pub settings_error: RefCell<Option<SettingsError>>,
        pub options: RefCell<Options>,
    }

    #[glib::object_subclass]
    impl ObjectSubclass for CubefulApplication {
        const NAME: &'static str = "CubefulApplication";
        type Type = super::CubefulApplication;
        type ParentType = adw::Application;
    }

    impl ObjectImpl for CubefulApplication {}

    impl ApplicationImpl for CubefulApplication {
        fn startup(&self) {
            self.parent_startup();
            let obj = self.obj();
            gtk::Window::set_default_icon_name(config::APP_ID);
            obj.load_settings();
            obj.setup_actions();
            for (action, accels) in ACCELS {
                obj.set_accels_for_action(action, accels);
            }
        }

        fn activate(&self) {
            self.parent_activate();
            self.obj().main_window_or_new();
        }

        fn open(&self, files: &[gio::File], _hint: &str) {
            let window = self.obj().main_window_or_new();
            // One match at a time: the first file.
            if let Some(path) = files.iter().find_map(|f| f.path()) {
                window.files_open(path);
            }
        }
    }

    impl CubefulApplication {
        /// The main window, made and shown the first time.
        pub(super) fn window(&self) -> CubefulWindow {
            let obj = self.obj();
            if let Some(window) = obj.main_window() {
                window.present();
                return window;
            }
            let window = CubefulWindow::new(&obj);
            let options = self.options.borrow().clone();
            window.set_test_options(options.debug_state, options.seed);
            window.present();
            if let Some(error) = self.settings_error.take() {
                glib::g_warning!("cubeful", "settings: {error}");
                window.toast(&gettext(
                    "Your settings could not be read and were reset to the defaults.",
                ));
            }
            window
        }
    }

    impl GtkApplicationImpl for CubefulApplication {}
    impl AdwApplicationImpl for CubefulApplication {}
}

glib::wrapper! {
    /// The application.
    pub struct CubefulApplication(ObjectSubclass<imp::CubefulApplication>)
        @extends adw::Application, gtk::Application, gio::Application,
        @implements gio::ActionGroup, gio::ActionMap;
}

impl CubefulApplication {
    /// The application, with the command-line `options`.
    pub fn new(options: Options) -> CubefulApplication {
        let app: CubefulApplication = glib::Object::builder()
            .property("application-id", config::APP_ID)
            .property("resource-base-path", config::RESOURCE_PATH)
            .property("flags", gio::ApplicationFlags::HANDLES_OPEN)
            .build();
        app.imp().options.replace(options);
        app
    }

    /// The current settings.
    pub fn settings(&self) -> Settings {
        self.imp().settings.borrow().clone()
    }

    /// Changes the settings with `f` and saves them.
    pub fn update_settings(&self, f: impl FnOnce(&mut Settings)) {
        let imp = self.imp();
        f(&mut imp.settings.borrow_mut());
        if let Some(path) = imp.settings_path.borrow().as_ref() {
            if let Err(e) = imp.settings.borrow().save(path) {
                glib::g_warning!("cubeful", "settings: {e}");
                if let Some(window) = self.main_window() {
                    window.toast(&gettext("Your settings could not be saved."));
                }
            }
        }
    }

    /// The main window, made and shown if there is none yet.
    fn main_window_or_new(&self) -> CubefulWindow {
        self.imp().window()
    }

    fn main_window(&self) -> Option<CubefulWindow> {
        self.windows()
            .into_iter()
            .find_map(|w| w.downcast::<CubefulWindow>().ok())
    }

    fn load_settings(&self) {
        let imp = self.imp();
        let Some(dir) = Settings::default_dir() else {
            return;
        };
        let path = dir.join(FILE_NAME);
        let (settings, error) = Settings::load_or_repair(&path);
        imp.settings.replace(settings);
        imp.settings_error.replace(error);
        imp.settings_path.replace(Some(path));
    }

    fn setup_actions(&self) {
        let quit = gio::ActionEntry::builder("quit")
            .activate(|app: &CubefulApplication, _, _| {
                for window in app.windows() {
                    window.close();
                }
            })
            .build();
        let about = gio::ActionEntry::builder("about")
            .activate(|app: &CubefulApplication, _, _| app.show_about())
            .build();
        let preferences = gio::ActionEntry::builder("preferences")
            .activate(|app: &CubefulApplication, _, _| app.show_preferences())
            .build();
        self.add_action_entries([quit, about, preferences]);
    }

    fn show_preferences(&self) {
        let parent = self.active_window();
        let shown = std::rc::Rc::new(RefCell::new(self.settings()));
        let window = PreferencesWindow::new(parent.as_ref(), &shown.borrow());
        window.connect_changed(glib::clone!(
            #[weak(rename_to = app)]
            self,
            #[strong]
            shown,
            move |new| {
                let before = app.settings();
                app.update_settings(|s| merge_preferences(s, &shown.borrow(), new));
                shown.replace(new.clone());
                if let Some(window) = app.main_window() {
                    window.apply_settings(&app.settings());
                    window.rename_people(&before, &app.settings());
                }
            }
        ));
        window.present();
    }

    fn show_about(&self) {
        let about = adw::AboutWindow::builder()
            .application_name("Cubeful")
            .application_icon(config::APP_ID)
            .version(config::VERSION)
            .comments(gettext(
                "Play backgammon matches against a strong computer opponent.",
            ))
            .license_type(gtk::License::Gpl30)
            .developer_name(gettext("The Cubeful developers"))
            .translator_credits(gettext("translator-credits"))
            .build();
        if let Some(window) = self.active_window() {
            about.set_transient_for(Some(&window));
        }
        about.present();
    }
}
