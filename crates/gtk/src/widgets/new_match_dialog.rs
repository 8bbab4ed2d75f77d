//! The new-match dialog (Ctrl+N): match length or money session, the rules that apply to
//! each (Crawford for matches; Jacoby and beavers for money), the opponent (the computer at a
//! level, or another person), names and manual dice. The quick buttons start at once.

use std::cell::RefCell;

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::game::MAX_MATCH_LENGTH;
use gtk::glib;

use crate::i18n::gettext;
use crate::session::{seat_names, MatchSetup, Opponent};
use crate::settings::{NewMatchSettings, Settings};
use crate::widgets::{level_at, level_index, level_list};

/// Called with the match to start and the choices to remember.
type StartHandler = Box<dyn Fn(&MatchSetup, &Remembered)>;

/// What the dialog remembers in the settings for next time.
#[derive(Clone, Debug, PartialEq)]
pub struct Remembered {
    pub new_match: NewMatchSettings,
    /// The names as typed (empty: the defaults).
    pub player_name: String,
    pub opponent_name: String,
    pub level: cubeful_engine::search::Level,
}

impl Remembered {
    /// Stores these choices in `settings`.
    pub fn store(&self, settings: &mut Settings) {
        settings.new_match = self.new_match.clone();
        settings.player_name = self.player_name.clone();
        settings.opponent_name = self.opponent_name.clone();
        settings.level = self.level.name().to_string();
    }
}

/// Lengths of the quick buttons (0 = money).
const QUICK: [u16; 7] = [0, 1, 3, 5, 7, 9, 11];

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "new_match_dialog.ui")]
    pub struct NewMatchDialog {
        #[template_child]
        pub cancel_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub start_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub quick_box: TemplateChild<gtk::Box>,
        #[template_child]
        pub money_switch: TemplateChild<gtk::Switch>,
        #[template_child]
        pub length_row: TemplateChild<adw::ActionRow>,
        #[template_child]
        pub length_spin: TemplateChild<gtk::SpinButton>,
        #[template_child]
        pub crawford_row: TemplateChild<adw::ActionRow>,
        #[template_child]
        pub crawford_switch: TemplateChild<gtk::Switch>,
        #[template_child]
        pub jacoby_row: TemplateChild<adw::ActionRow>,
        #[template_child]
        pub jacoby_switch: TemplateChild<gtk::Switch>,
        #[template_child]
        pub beavers_row: TemplateChild<adw::ActionRow>,
        #[template_child]
        pub beavers_switch: TemplateChild<gtk::Switch>,
        #[template_child]
        pub opponent_row: TemplateChild<adw::ComboRow>,
        #[template_child]
        pub level_row: TemplateChild<adw::ComboRow>,
        #[template_child]
        pub name_row: TemplateChild<adw::EntryRow>,
        #[template_child]
        pub opponent_name_row: TemplateChild<adw::EntryRow>,
        #[template_child]
        pub manual_switch: TemplateChild<gtk::Switch>,
        pub on_start: RefCell<Vec<StartHandler>>,
    }

    impl std::fmt::Debug for NewMatchDialog {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("NewMatchDialog").finish_non_exhaustive()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for NewMatchDialog {
        const NAME: &'static str = "CubefulNewMatchDialog";
        type Type = super::NewMatchDialog;
        type ParentType = adw::Window;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
            crate::widgets::close_on_escape(klass);
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for NewMatchDialog {
        fn constructed(&self) {
            self.parent_constructed();
            let obj = self.obj();
            self.level_row.set_model(Some(&level_list()));
            for length in QUICK {
                let label = if length == 0 {
                    gettext("Money")
                } else {
                    length.to_string()
                };
                let button = gtk::Button::with_label(&label);
                button.connect_clicked(glib::clone!(
                    #[weak]
                    obj,
                    move |_| obj.quick_start(length)
                ));
                self.quick_box.append(&button);
            }
            self.cancel_button.connect_clicked(glib::clone!(
                #[weak]
                obj,
                move |_| obj.close()
            ));
            self.start_button.connect_clicked(glib::clone!(
                #[weak]
                obj,
                move |_| obj.start()
            ));
            self.money_switch.connect_active_notify(glib::clone!(
                #[weak]
                obj,
                move |_| obj.update_sensitivity()
            ));
            self.opponent_row.connect_selected_notify(glib::clone!(
                #[weak]
                obj,
                move |_| obj.update_sensitivity()
            ));
            obj.set_default_widget(Some(&*self.start_button));
            GtkWindowExt::set_focus(&*obj, Some(&*self.start_button));
        }
    }

    impl WidgetImpl for NewMatchDialog {}
    impl WindowImpl for NewMatchDialog {}
    impl AdwWindowImpl for NewMatchDialog {}
}

glib::wrapper! {
    /// The new-match dialog.
    pub struct NewMatchDialog(ObjectSubclass<imp::NewMatchDialog>)
        @extends adw::Window, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native,
                    gtk::Root, gtk::ShortcutManager;
}

impl NewMatchDialog {
    /// A dialog over `parent`, filled with the remembered choices of `settings`.
    pub fn new(parent: &impl IsA<gtk::Window>, settings: &Settings) -> NewMatchDialog {
        let dialog: NewMatchDialog = glib::Object::builder()
            .property("transient-for", parent)
            .build();
        let imp = dialog.imp();
        let m = &settings.new_match;
        imp.money_switch.set_active(m.length == 0);
        imp.length_spin
            .set_value(f64::from(if m.length == 0 { 5 } else { m.length }));
        imp.crawford_switch.set_active(m.crawford);
        imp.jacoby_switch.set_active(m.jacoby);
        imp.beavers_switch.set_active(m.beavers);
        imp.opponent_row
            .set_selected(if m.human_vs_human { 1 } else { 0 });
        imp.level_row.set_selected(level_index(settings.level()));
        imp.name_row.set_text(&settings.player_name);
        imp.opponent_name_row.set_text(&settings.opponent_name);
        imp.manual_switch.set_active(m.manual_dice);
        dialog.update_sensitivity();
        dialog
    }

    /// Calls `f` when the user starts a match.
    pub fn connect_start<F: Fn(&MatchSetup, &Remembered) + 'static>(&self, f: F) {
        self.imp().on_start.borrow_mut().push(Box::new(f));
    }

    /// Rows that do not apply to the kind of match are greyed out.
    fn update_sensitivity(&self) {
        let imp = self.imp();
        let money = imp.money_switch.is_active();
        imp.length_row.set_sensitive(!money);
        imp.crawford_row.set_sensitive(!money);
        imp.jacoby_row.set_sensitive(money);
        imp.beavers_row.set_sensitive(money);
        imp.level_row
            .set_sensitive(imp.opponent_row.selected() == 0);
    }

    /// The choices as they stand.
    pub fn choices(&self) -> NewMatchSettings {
        let imp = self.imp();
        NewMatchSettings {
            length: if imp.money_switch.is_active() {
                0
            } else {
                imp.length_spin
                    .value()
                    .clamp(1.0, f64::from(MAX_MATCH_LENGTH)) as u16
            },
            human_vs_human: imp.opponent_row.selected() == 1,
            manual_dice: imp.manual_switch.is_active(),
            crawford: imp.crawford_switch.is_active(),
            jacoby: imp.jacoby_switch.is_active(),
            beavers: imp.beavers_switch.is_active(),
        }
    }

    /// The match the choices describe.
    pub fn setup(&self) -> MatchSetup {
        let imp = self.imp();
        let c = self.choices();
        let level = level_at(imp.level_row.selected());
        let opponent = if c.human_vs_human {
            Opponent::Human
        } else {
            Opponent::Bot(level)
        };
        let names = seat_names(
            &imp.name_row.text(),
            &imp.opponent_name_row.text(),
            c.human_vs_human,
        );
        MatchSetup {
            length: c.length,
            crawford: c.crawford,
            jacoby: c.jacoby,
            beavers: c.beavers,
            opponent,
            names,
            manual_dice: c.manual_dice,
            seed: None,
        }
    }

    fn quick_start(&self, length: u16) {
        let imp = self.imp();
        imp.money_switch.set_active(length == 0);
        if length > 0 {
            imp.length_spin.set_value(f64::from(length));
        }
        self.start();
    }

    /// The choices to remember.
    pub fn remembered(&self) -> Remembered {
        let imp = self.imp();
        Remembered {
            new_match: self.choices(),
            player_name: imp.name_row.text().trim().to_string(),
            opponent_name: imp.opponent_name_row.text().trim().to_string(),
            level: level_at(imp.level_row.selected()),
        }
    }

    fn start(&self) {
        let setup = self.setup();
        let remembered = self.remembered();
        for f in self.imp().on_start.borrow().iter() {
            f(&setup, &remembered);
        }
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The match length spin button stops where the engine does.
    #[test]
    fn the_longest_match_offered_is_the_engines() {
        let ui = include_str!("new_match_dialog.ui");
        let spin = &ui[ui
            .find("id=\"length_spin\"")
            .expect("the length spin button")..];
        let upper = spin
            .split("<property name=\"upper\">")
            .nth(1)
            .and_then(|rest| rest.split('<').next())
            .expect("an upper bound");
        assert_eq!(upper, MAX_MATCH_LENGTH.to_string());
    }
}
