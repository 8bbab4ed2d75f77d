//! The resign dialog: which resignation to offer the opponent (a single game, a gammon or a
//! backgammon). Its texts and answers are in its template, `resign_dialog.ui`.

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::Resignation;
use gtk::glib;

mod imp {
    use super::*;

    #[derive(Debug, Default, gtk::CompositeTemplate)]
    #[template(file = "resign_dialog.ui")]
    pub struct ResignDialog {}

    #[glib::object_subclass]
    impl ObjectSubclass for ResignDialog {
        const NAME: &'static str = "CubefulResignDialog";
        type Type = super::ResignDialog;
        type ParentType = adw::MessageDialog;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for ResignDialog {}
    impl WidgetImpl for ResignDialog {}
    impl WindowImpl for ResignDialog {}
    impl MessageDialogImpl for ResignDialog {}
}

glib::wrapper! {
    /// The resign dialog.
    pub struct ResignDialog(ObjectSubclass<imp::ResignDialog>)
        @extends adw::MessageDialog, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native, gtk::Root,
                    gtk::ShortcutManager;
}

impl ResignDialog {
    /// A resign dialog over `parent`.
    pub fn new(parent: &impl IsA<gtk::Window>) -> ResignDialog {
        glib::Object::builder()
            .property("transient-for", parent)
            .build()
    }

    /// Calls `f` with the resignation chosen (not when the dialog is cancelled).
    pub fn connect_chosen<F: Fn(Resignation) + 'static>(&self, f: F) {
        adw::prelude::MessageDialogExt::connect_response(self, None, move |_, response| {
            if let Some(r) = resignation_of(response) {
                f(r);
            }
        });
    }
}

/// The resignation an answer of the dialog offers (`None`: cancelled).
pub fn resignation_of(response: &str) -> Option<Resignation> {
    match response {
        "single" => Some(Resignation::Single),
        "gammon" => Some(Resignation::Gammon),
        "backgammon" => Some(Resignation::Backgammon),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers() {
        assert_eq!(resignation_of("gammon"), Some(Resignation::Gammon));
        assert_eq!(resignation_of("single"), Some(Resignation::Single));
        assert_eq!(resignation_of("backgammon"), Some(Resignation::Backgammon));
        assert_eq!(resignation_of("cancel"), None);
        // Every answer of the template but Cancel is a resignation.
        let ui = include_str!("resign_dialog.ui");
        let ids: Vec<&str> = ui
            .split("<response id=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .collect();
        assert_eq!(ids, ["cancel", "single", "gammon", "backgammon"]);
        assert!(ids[1..].iter().all(|id| resignation_of(id).is_some()));
    }
}
