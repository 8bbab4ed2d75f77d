//! The result dialog: who won the match and how the last game ended, with a button for a new
//! match. Its answers are in its template, `result_dialog.ui`.

use adw::prelude::*;
use adw::subclass::prelude::*;
use gtk::glib;

use crate::i18n::gettext_f;

mod imp {
    use super::*;

    #[derive(Debug, Default, gtk::CompositeTemplate)]
    #[template(file = "result_dialog.ui")]
    pub struct ResultDialog {}

    #[glib::object_subclass]
    impl ObjectSubclass for ResultDialog {
        const NAME: &'static str = "CubefulResultDialog";
        type Type = super::ResultDialog;
        type ParentType = adw::MessageDialog;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for ResultDialog {}
    impl WidgetImpl for ResultDialog {}
    impl WindowImpl for ResultDialog {}
    impl MessageDialogImpl for ResultDialog {}
}

glib::wrapper! {
    /// The result dialog.
    pub struct ResultDialog(ObjectSubclass<imp::ResultDialog>)
        @extends adw::MessageDialog, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native, gtk::Root,
                    gtk::ShortcutManager;
}

impl ResultDialog {
    /// A result dialog over `parent`: `winner` won the match; `text` tells the last game.
    pub fn new(parent: &impl IsA<gtk::Window>, winner: &str, text: &str) -> ResultDialog {
        let dialog: ResultDialog = glib::Object::builder()
            .property("transient-for", parent)
            .build();
        dialog.set_heading(Some(&gettext_f("{} won the match", &[winner])));
        dialog.set_body(text);
        dialog
    }

    /// Calls `f` when the user asks for a new match.
    pub fn connect_new_match<F: Fn() + 'static>(&self, f: F) {
        adw::prelude::MessageDialogExt::connect_response(self, Some("new"), move |_, _| f());
    }
}
