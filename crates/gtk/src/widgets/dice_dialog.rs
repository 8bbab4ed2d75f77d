//! The dice dialog of manual dice: the two dice of a roll, or the opening roll (the top
//! player's die, then the bottom player's). Its layout is in its template, `dice_dialog.ui`.

use std::cell::Cell;
use std::rc::Rc;

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::Dice;
use gtk::glib;

use crate::i18n::{gettext, gettext_f};

mod imp {
    use super::*;

    #[derive(Debug, Default, gtk::CompositeTemplate)]
    #[template(file = "dice_dialog.ui")]
    pub struct DiceDialog {
        #[template_child]
        pub first_die: TemplateChild<gtk::SpinButton>,
        #[template_child]
        pub second_die: TemplateChild<gtk::SpinButton>,
    }

    #[glib::object_subclass]
    impl ObjectSubclass for DiceDialog {
        const NAME: &'static str = "CubefulDiceDialog";
        type Type = super::DiceDialog;
        type ParentType = adw::MessageDialog;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for DiceDialog {}
    impl WidgetImpl for DiceDialog {}
    impl WindowImpl for DiceDialog {}
    impl MessageDialogImpl for DiceDialog {}
}

glib::wrapper! {
    /// The dice dialog.
    pub struct DiceDialog(ObjectSubclass<imp::DiceDialog>)
        @extends adw::MessageDialog, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native, gtk::Root,
                    gtk::ShortcutManager;
}

impl DiceDialog {
    /// A dice dialog over `parent` for the roll of `name` (`None`: the opening roll).
    pub fn new(parent: &impl IsA<gtk::Window>, name: Option<&str>) -> DiceDialog {
        let dialog: DiceDialog = glib::Object::builder()
            .property("transient-for", parent)
            .build();
        dialog.set_body(&body_text(name));
        dialog
    }

    /// The dice entered.
    pub fn dice(&self) -> Option<Dice> {
        let imp = self.imp();
        Dice::new(
            imp.first_die.value_as_int() as u8,
            imp.second_die.value_as_int() as u8,
        )
        .ok()
    }

    /// Calls `f` once, when the dialog is answered: with the dice, or `None` when it was
    /// cancelled.
    pub fn connect_answered<F: Fn(Option<Dice>) + 'static>(&self, f: F) {
        let answered = Rc::new(Cell::new(false));
        adw::prelude::MessageDialogExt::connect_response(self, None, move |dialog, response| {
            if !answered.replace(true) {
                let dice = dialog.downcast_ref::<DiceDialog>().and_then(|d| d.dice());
                f(if response == "roll" { dice } else { None });
            }
        });
    }
}

/// What the dialog asks for.
fn body_text(name: Option<&str>) -> String {
    match name {
        None => gettext("Enter the opening roll: the top player's die, then the bottom player's."),
        Some(name) => gettext_f("Enter the dice {} rolled.", &[name]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_question() {
        assert!(body_text(None).contains("opening roll"));
        assert_eq!(body_text(Some("Ann")), "Enter the dice Ann rolled.");
    }
}
