//! The window's files: Open (Ctrl+O, a file on the command line, a file dropped on the window),
//! Save (Ctrl+S), Save As (Ctrl+Shift+S), Export (`.mat`, text, the HTML statistics report), the
//! Recent submenu, the title, the automatic save after every step with the offer to resume it
//! after a crash, and the Save / Discard / Cancel question before a match with unsaved changes
//! is thrown away (a new match, another file, closing the window).
//!
//! What is decided here is only the dialogs: the document's state, the autosave, reading and
//! writing are [`crate::document`] (no GTK, unit-tested).

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::formats::match_file::MatchFormat;
use gtk::{gdk, gio, glib};

use super::CubefulWindow;
use crate::document::{
    self, action_count, existing_recent, last_action, open_session, record_to_save, Autosave,
    Document, Export, Seats,
};
use crate::i18n::{gettext, gettext_f};

/// What the files part of the window keeps.
#[derive(Debug, Default)]
pub struct FilesState {
    /// The match's file and saved state.
    pub document: Document,
    /// The automatic save (`None` without a data folder).
    pub autosave: Option<Autosave>,
    /// The record last written to the autosave (so it is written only when it changed).
    pub autosaved: Option<cubeful_engine::game::record::MatchRecord>,
    /// An autosave may be on disk (written by us, or found at the start).
    pub autosave_on_disk: bool,
    /// The offer to resume is open: the autosave is not touched until it is answered.
    pub resume_pending: bool,
    /// The Save / Discard / Cancel question is open.
    pub confirm_open: bool,
    /// The user chose Save or Discard for the new match about to be set up.
    pub new_match_confirmed: bool,
    /// The user chose Save or Discard before closing: close without asking again.
    pub close_confirmed: bool,
    /// The file chooser shown (kept alive while it is open).
    pub chooser: Option<gtk::FileChooserNative>,
    /// Writing the autosave failed (told once).
    pub autosave_failed: bool,
    /// A file is being read.
    pub loading: bool,
    /// The last problem shown, for tests.
    pub last_error: Option<String>,
}

/// What to do once the unsaved match is saved or discarded.
type Then = Box<dyn FnOnce(&CubefulWindow)>;

impl CubefulWindow {
    // ------------------------------------------------------------------------------------
    // Hooks called by window.rs
    // ------------------------------------------------------------------------------------

    /// Sets up the actions, the drop target and the Recent submenu; offers to resume a match
    /// saved automatically before a crash (once the window is shown).
    pub(super) fn files_setup(&self) {
        let imp = self.imp();
        imp.files.borrow_mut().autosave = Autosave::default_dir().map(Autosave::new);

        self.add_plain_actions(&[
            ("open", |w| w.files_choose_and_open()),
            ("save", |w| w.files_save(None)),
            ("save-as", |w| w.files_save_as(None)),
        ]);
        let export = gio::SimpleAction::new("export", Some(glib::VariantTy::STRING));
        export.connect_activate(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |_, parameter| {
                let what = match parameter.and_then(|p| p.str()) {
                    Some("mat") => Export::Match(MatchFormat::Mat),
                    Some("txt") => Export::Match(MatchFormat::Text),
                    Some("html") => Export::HtmlReport,
                    _ => return,
                };
                window.files_export(what);
            }
        ));
        let recent = gio::SimpleAction::new("open-recent", Some(glib::VariantTy::STRING));
        recent.connect_activate(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |_, parameter| {
                if let Some(path) = parameter.and_then(|p| p.str()) {
                    window.files_open(PathBuf::from(path));
                }
            }
        ));
        for action in [&export, &recent] {
            self.add_action(action);
        }

        // A match file dropped on the window is opened.
        let drop = gtk::DropTarget::new(gio::File::static_type(), gdk::DragAction::COPY);
        drop.connect_drop(glib::clone!(
            #[weak(rename_to = window)]
            self,
            #[upgrade_or]
            false,
            move |_, value, _, _| match value.get::<gio::File>().ok().and_then(|f| f.path()) {
                Some(path) => {
                    window.files_open(path);
                    true
                }
                None => false,
            }
        ));
        self.add_controller(drop);

        self.files_update_recent_menu();
        glib::idle_add_local_once(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move || window.files_offer_resume()
        ));
    }

    /// After every step of the controller: writes the autosave if the match changed (or
    /// removes it when there is nothing left to lose), and updates the title.
    pub(super) fn files_after_step(&self) {
        let imp = self.imp();
        let mut failure = None;
        {
            let c = imp.controller.borrow();
            let mut files = imp.files.borrow_mut();
            if let (Some(session), Some(autosave), false) =
                (c.session(), files.autosave.clone(), files.resume_pending)
            {
                let over = session.game().match_winner().is_some();
                let keep = files.document.is_session_modified(session) && !over;
                if keep {
                    let written = files
                        .autosaved
                        .as_ref()
                        .is_some_and(|r| document::same_record(r, session));
                    if !written {
                        let record = record_to_save(session);
                        let seats = Seats::of(session, &files.document);
                        match autosave.save(&record, &seats) {
                            Ok(()) => {
                                files.autosaved = Some(record);
                                files.autosave_on_disk = true;
                            }
                            Err(e) => {
                                glib::g_warning!("cubeful", "autosave: {e}");
                                if !std::mem::replace(&mut files.autosave_failed, true) {
                                    failure = Some(e);
                                }
                            }
                        }
                    }
                } else if files.autosave_on_disk {
                    if let Err(e) = autosave.remove() {
                        glib::g_warning!("cubeful", "autosave: {e}");
                    }
                    files.autosave_on_disk = false;
                    files.autosaved = None;
                }
            }
        }
        if let Some(e) = failure {
            self.toast(&gettext_f(
                "The match in progress cannot be saved automatically: {}",
                &[&e.to_string()],
            ));
        }
        self.files_update_title();
    }

    /// Before the new-match dialog opens: true (the caller stops) while the Save / Discard /
    /// Cancel question is asked; after Save or Discard the dialog is opened again.
    pub(super) fn files_hold_new_match(&self) -> bool {
        let imp = self.imp();
        if std::mem::take(&mut imp.files.borrow_mut().new_match_confirmed) {
            return false;
        }
        if !self.files_unsaved() {
            return false;
        }
        self.files_confirm_unsaved(Box::new(|window: &CubefulWindow| {
            window.imp().files.borrow_mut().new_match_confirmed = true;
            window.show_new_match();
        }));
        true
    }

    /// Runs `then` at once if the match in progress has no unsaved changes; otherwise after
    /// the Save / Discard / Cancel question is answered Save (once written) or Discard.
    pub(super) fn files_when_saved(&self, then: Then) {
        if self.files_unsaved() {
            self.files_confirm_unsaved(then);
        } else {
            then(self);
        }
    }

    /// A new match starts: it is in no file, and the old match's autosave goes.
    pub(super) fn files_new_match(&self) {
        let mut files = self.imp().files.borrow_mut();
        files.document = Document::untitled();
        files.autosaved = None;
        if let Some(autosave) = files.autosave.clone() {
            if files.autosave_on_disk && !files.resume_pending {
                let _ = autosave.remove();
                files.autosave_on_disk = false;
            }
        }
    }

    /// The window is asked to close: true (do not close) while the Save / Discard / Cancel
    /// question is asked. A clean close removes the autosave.
    pub(super) fn files_close_request(&self) -> bool {
        let imp = self.imp();
        let confirmed = std::mem::take(&mut imp.files.borrow_mut().close_confirmed);
        if !confirmed && self.files_unsaved() {
            self.files_confirm_unsaved(Box::new(|window: &CubefulWindow| {
                window.imp().files.borrow_mut().close_confirmed = true;
                window.close();
            }));
            return true;
        }
        let mut files = imp.files.borrow_mut();
        if !files.resume_pending {
            if let Some(autosave) = files.autosave.clone() {
                if files.autosave_on_disk {
                    let _ = autosave.remove();
                    files.autosave_on_disk = false;
                }
            }
        }
        false
    }

    /// What the end-to-end tests see of the files (`--debug-state`, key `files`).
    pub(super) fn files_debug_state(&self) -> serde_json::Value {
        use serde_json::json;
        let imp = self.imp();
        let files = imp.files.borrow();
        let c = imp.controller.borrow();
        let record = c.session().map(record_to_save);
        json!({
            "title": self.title().map(|t| t.to_string()),
            "path": files.document.path().map(|p| p.display().to_string()),
            "format": files.document.format().map(|f| f.extension()),
            "modified": record.as_ref().map(|r| files.document.is_modified(r)),
            "games": record.as_ref().map(|r| r.games.len()),
            "actions": record.as_ref().map(action_count),
            "last_action": record.as_ref().and_then(last_action),
            "autosave": files.autosave.as_ref().map(|a| a.match_path().display().to_string()),
            "autosaved_actions": files.autosaved.as_ref().map(action_count),
            "resume_offered": files.resume_pending,
            "confirm_open": files.confirm_open,
            "chooser_open": files.chooser.is_some(),
            "recent": self.settings().recent_files,
            "error": files.last_error,
        })
    }

    // ------------------------------------------------------------------------------------
    // State
    // ------------------------------------------------------------------------------------

    /// The match has changes that are in no file.
    fn files_unsaved(&self) -> bool {
        let imp = self.imp();
        let c = imp.controller.borrow();
        c.session()
            .is_some_and(|s| imp.files.borrow().document.is_session_modified(s))
    }

    fn files_update_title(&self) {
        let imp = self.imp();
        let (title, file) = {
            let c = imp.controller.borrow();
            let files = imp.files.borrow();
            let file = files
                .document
                .path()
                .and_then(Path::file_name)
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (files.document.title(c.session()), file)
        };
        match title {
            Some(title) => {
                imp.window_title.set_title(&title);
                self.set_title(Some(&format!("{title} – Cubeful")));
            }
            None => {
                imp.window_title.set_title("Cubeful");
                self.set_title(Some("Cubeful"));
            }
        }
        imp.model.set_file_title(file);
    }

    fn files_error(&self, text: String) {
        glib::g_warning!("cubeful", "{text}");
        self.toast(&text);
        self.imp().files.borrow_mut().last_error = Some(text);
    }

    // ------------------------------------------------------------------------------------
    // Resume after a crash
    // ------------------------------------------------------------------------------------

    fn files_offer_resume(&self) {
        let imp = self.imp();
        let Some(autosave) = imp.files.borrow().autosave.clone() else {
            return;
        };
        if imp.controller.borrow().session().is_some() || imp.files.borrow().loading {
            // A file given on the command line came first; the autosave stays for next time.
            return;
        }
        let resumable = match autosave.load() {
            Ok(Some(resumable)) => resumable,
            Ok(None) => return,
            Err(e) => {
                glib::g_warning!("cubeful", "autosave: {e}");
                let _ = autosave.set_aside();
                self.files_error(gettext_f(
                    "The match saved when Cubeful last stopped could not be read and was put aside: {}",
                    &[&e.message()],
                ));
                return;
            }
        };
        {
            let mut files = imp.files.borrow_mut();
            files.resume_pending = true;
            files.autosave_on_disk = true;
        }
        let dialog = adw::MessageDialog::new(
            Some(self),
            Some(&gettext("Resume the Unfinished Match?")),
            Some(&gettext_f(
                "Cubeful stopped before this match was saved. {}",
                &[&resumable.summary()],
            )),
        );
        dialog.add_responses(&[
            ("discard", &gettext("_Discard")),
            ("resume", &gettext("_Resume")),
        ]);
        dialog.set_response_appearance("discard", adw::ResponseAppearance::Destructive);
        dialog.set_response_appearance("resume", adw::ResponseAppearance::Suggested);
        dialog.set_default_response(Some("resume"));
        // Closing the question loses nothing: the match is resumed.
        dialog.set_close_response("resume");
        let path = autosave.match_path();
        dialog.connect_response(
            None,
            glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_, response| {
                    window.imp().files.borrow_mut().resume_pending = false;
                    if response == "discard" {
                        let _ = autosave.remove();
                        let mut files = window.imp().files.borrow_mut();
                        files.autosave_on_disk = false;
                        files.autosaved = None;
                        drop(files);
                        window.files_after_step();
                        return;
                    }
                    let level = window.settings().level();
                    let seed = window.imp().seed.get();
                    match resumable.session(&path, level, seed) {
                        Ok((session, document)) => {
                            {
                                let mut files = window.imp().files.borrow_mut();
                                files.autosaved = Some(resumable.record.clone());
                                files.document = document;
                            }
                            window.control(|c| c.resume(session));
                            window.record_changed();
                        }
                        Err(e) => window.files_error(e.message()),
                    }
                }
            ),
        );
        dialog.present();
        self.write_debug_state();
    }

    // ------------------------------------------------------------------------------------
    // Save / Discard / Cancel
    // ------------------------------------------------------------------------------------

    /// Asks what to do with the unsaved match; `then` runs after Save (once written) or
    /// Discard, never after Cancel.
    fn files_confirm_unsaved(&self, then: Then) {
        if self.imp().files.borrow().confirm_open {
            return;
        }
        let dialog = adw::MessageDialog::new(
            Some(self),
            Some(&gettext("Save the Match?")),
            Some(&gettext(
                "The match has changes that are not saved in a file. If you do not save them, they are lost.",
            )),
        );
        dialog.add_responses(&[
            ("cancel", &gettext("_Cancel")),
            ("discard", &gettext("_Discard")),
            ("save", &gettext("_Save")),
        ]);
        dialog.set_response_appearance("discard", adw::ResponseAppearance::Destructive);
        dialog.set_response_appearance("save", adw::ResponseAppearance::Suggested);
        dialog.set_default_response(Some("save"));
        dialog.set_close_response("cancel");
        let then = Rc::new(RefCell::new(Some(then)));
        dialog.connect_response(
            None,
            glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_, response| {
                    window.imp().files.borrow_mut().confirm_open = false;
                    let Some(then) = then.borrow_mut().take() else {
                        return;
                    };
                    match response {
                        "save" => window.files_save(Some(then)),
                        "discard" => {
                            {
                                let mut files = window.imp().files.borrow_mut();
                                if let Some(autosave) = files.autosave.clone() {
                                    let _ = autosave.remove();
                                }
                                files.autosave_on_disk = false;
                                files.autosaved = None;
                            }
                            then(&window);
                        }
                        _ => window.write_debug_state(),
                    }
                }
            ),
        );
        self.imp().files.borrow_mut().confirm_open = true;
        dialog.present();
        self.write_debug_state();
    }

    // ------------------------------------------------------------------------------------
    // Opening
    // ------------------------------------------------------------------------------------

    fn files_choose_and_open(&self) {
        let chooser = gtk::FileChooserNative::new(
            Some(&gettext("Open Match")),
            Some(self),
            gtk::FileChooserAction::Open,
            Some(&gettext("_Open")),
            Some(&gettext("_Cancel")),
        );
        let filter = gtk::FileFilter::new();
        filter.set_name(Some(&gettext("Match files (SGF, .mat)")));
        for pattern in ["*.sgf", "*.SGF", "*.mat", "*.MAT", "*.gam", "*.txt"] {
            filter.add_pattern(pattern);
        }
        chooser.add_filter(&filter);
        let all = gtk::FileFilter::new();
        all.set_name(Some(&gettext("All files")));
        all.add_pattern("*");
        chooser.add_filter(&all);
        self.files_chooser_folder(&chooser, None);
        chooser.connect_response(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |chooser, response| {
                let path = (response == gtk::ResponseType::Accept)
                    .then(|| chooser.file().and_then(|f| f.path()))
                    .flatten();
                window.imp().files.borrow_mut().chooser = None;
                if let Some(path) = path {
                    window.files_open(path);
                }
                window.write_debug_state();
            }
        ));
        self.files_show_chooser(chooser);
    }

    /// Opens the match file `path` (after asking about an unsaved match).
    pub fn files_open(&self, path: PathBuf) {
        if self.files_unsaved() {
            self.files_confirm_unsaved(Box::new(move |window: &CubefulWindow| {
                window.files_load(path)
            }));
        } else {
            self.files_load(path);
        }
    }

    /// Reads `path` on a worker thread, then plays on with it.
    fn files_load(&self, path: PathBuf) {
        self.imp().files.borrow_mut().loading = true;
        glib::spawn_future_local(glib::clone!(
            #[weak(rename_to = window)]
            self,
            async move {
                let read_path = path.clone();
                let result = gio::spawn_blocking(move || document::read_match_file(&read_path))
                    .await
                    .unwrap_or_else(|_| {
                        Err(document::DocumentError::Read(
                            cubeful_engine::files::FileError::NotRegularSource {
                                path: path.clone(),
                            },
                        ))
                    });
                window.imp().files.borrow_mut().loading = false;
                window.files_loaded(&path, result);
            }
        ));
    }

    fn files_loaded(
        &self,
        path: &Path,
        result: Result<document::OpenedMatch, document::DocumentError>,
    ) {
        let opened = match result {
            Ok(opened) => opened,
            Err(e) => {
                self.files_forget_recent(path);
                return self.files_error(e.message());
            }
        };
        let level = self.settings().level();
        let seed = self.imp().seed.get();
        let (session, doc) = match open_session(&opened, path, level, seed) {
            Ok(pair) => pair,
            Err(e) => return self.files_error(e.message()),
        };
        {
            let mut files = self.imp().files.borrow_mut();
            files.document = doc;
            files.autosaved = None;
            files.last_error = None;
        }
        self.files_remember_recent(path);
        self.control(|c| c.resume(session));
        self.record_changed();
        if let Some(first) = opened.warnings.first() {
            let text = if opened.warnings.len() == 1 {
                gettext_f("Part of the file could not be used: {}", &[first])
            } else {
                gettext_f(
                    "Parts of the file could not be used ({} problems), the first: {}",
                    &[&opened.warnings.len().to_string(), first],
                )
            };
            self.toast(&text);
        }
        self.write_debug_state();
    }

    // ------------------------------------------------------------------------------------
    // Saving and exporting
    // ------------------------------------------------------------------------------------

    /// Ctrl+S: writes the match to its SGF file, or asks for a name. `then` runs once saved.
    fn files_save(&self, then: Option<Then>) {
        let target = self
            .imp()
            .files
            .borrow()
            .document
            .save_target()
            .map(Path::to_path_buf);
        match target {
            Some(path) => {
                if self.files_write(&path, Export::Match(MatchFormat::Sgf)) {
                    if let Some(then) = then {
                        then(self);
                    }
                }
            }
            None => self.files_save_as(then),
        }
    }

    /// Ctrl+Shift+S: asks for a file name and writes the match there (SGF unless the name says
    /// `.mat` or `.txt`).
    fn files_save_as(&self, then: Option<Then>) {
        self.files_ask_target(Export::Match(MatchFormat::Sgf), then);
    }

    fn files_export(&self, what: Export) {
        self.files_ask_target(what, None);
    }

    /// Shows a save chooser for `what`, then writes; `then` runs once written.
    fn files_ask_target(&self, what: Export, then: Option<Then>) {
        let suggested = {
            let imp = self.imp();
            let c = imp.controller.borrow();
            let Some(session) = c.session() else {
                drop(c);
                self.toast(&gettext("There is no match to save."));
                return;
            };
            let files = imp.files.borrow();
            let format = match what {
                Export::Match(format) => format,
                Export::HtmlReport => MatchFormat::Sgf,
            };
            let name = files.document.suggested_name(session, format);
            match what {
                Export::HtmlReport => {
                    format!("{}.html", name.strip_suffix(".sgf").unwrap_or(&name))
                }
                _ => name,
            }
        };
        let title = match what {
            Export::Match(MatchFormat::Sgf) => gettext("Save Match"),
            Export::Match(MatchFormat::Mat) => gettext("Export as .mat"),
            Export::Match(MatchFormat::Text) => gettext("Export as Text"),
            Export::HtmlReport => gettext("Export Statistics Report"),
        };
        let chooser = gtk::FileChooserNative::new(
            Some(&title),
            Some(self),
            gtk::FileChooserAction::Save,
            Some(&gettext("_Save")),
            Some(&gettext("_Cancel")),
        );
        chooser.set_current_name(&suggested);
        let current = self
            .imp()
            .files
            .borrow()
            .document
            .path()
            .map(Path::to_path_buf);
        self.files_chooser_folder(&chooser, current.as_deref());
        let then = Rc::new(RefCell::new(then));
        chooser.connect_response(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |chooser, response| {
                let path = (response == gtk::ResponseType::Accept)
                    .then(|| chooser.file().and_then(|f| f.path()))
                    .flatten();
                window.imp().files.borrow_mut().chooser = None;
                if let Some(path) = path {
                    let path = document::with_extension(&path, what);
                    let what = match what {
                        Export::Match(_) => MatchFormat::from_path(&path)
                            .map(Export::Match)
                            .unwrap_or(what),
                        Export::HtmlReport => what,
                    };
                    if window.files_write(&path, what) {
                        if let Some(then) = then.borrow_mut().take() {
                            then(&window);
                        }
                    }
                }
                window.write_debug_state();
            }
        ));
        self.files_show_chooser(chooser);
    }

    /// Writes the match to `path` as `what`; true if written. The document follows an SGF
    /// save; errors are shown.
    fn files_write(&self, path: &Path, what: Export) -> bool {
        let record = {
            let c = self.imp().controller.borrow();
            match c.session() {
                Some(s) => record_to_save(s),
                None => return false,
            }
        };
        if let Err(e) = document::write(path, &record, what) {
            self.files_error(e.message());
            return false;
        }
        if let Export::Match(format) = what {
            self.imp()
                .files
                .borrow_mut()
                .document
                .saved_as(path.to_path_buf(), format, record);
        }
        if let Some(folder) = path.parent().map(Path::to_path_buf) {
            if let Some(app) = self.app() {
                app.update_settings(|s| s.last_folder = Some(folder));
            }
        }
        if matches!(what, Export::Match(_)) {
            self.files_remember_recent(path);
        }
        self.imp().files.borrow_mut().last_error = None;
        // The title and the autosave follow the file before the toast, which publishes the
        // state (`--debug-state`) and comes last: whoever sees the toast sees everything the
        // save changed.
        self.files_after_step();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.toast(&match what {
            Export::Match(MatchFormat::Sgf) => gettext_f("Saved as “{}”.", &[&name]),
            _ => gettext_f("Exported to “{}”.", &[&name]),
        });
        true
    }

    // ------------------------------------------------------------------------------------
    // Choosers and recent files
    // ------------------------------------------------------------------------------------

    /// Starts the chooser in the folder of `current` (the match's file), else the folder used
    /// last, else the documents folder, else the home folder.
    fn files_chooser_folder(&self, chooser: &gtk::FileChooserNative, current: Option<&Path>) {
        let folder = current
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .filter(|f| f.is_dir())
            .or_else(|| self.settings().last_folder.filter(|f| f.is_dir()))
            .or_else(|| {
                glib::user_special_dir(glib::UserDirectory::Documents).filter(|f| f.is_dir())
            })
            .unwrap_or_else(glib::home_dir);
        let _ = chooser.set_current_folder(Some(&gio::File::for_path(folder)));
    }

    fn files_show_chooser(&self, chooser: gtk::FileChooserNative) {
        chooser.set_modal(true);
        chooser.show();
        self.imp().files.borrow_mut().chooser = Some(chooser);
        self.write_debug_state();
    }

    fn files_remember_recent(&self, path: &Path) {
        if let Some(app) = self.app() {
            app.update_settings(|s| document::remember_recent(&mut s.recent_files, path));
        }
        self.files_update_recent_menu();
    }

    fn files_forget_recent(&self, path: &Path) {
        if let Some(app) = self.app() {
            app.update_settings(|s| s.recent_files.retain(|p| p != path));
        }
        self.files_update_recent_menu();
    }

    /// Fills the Recent submenu: the recent files that still exist, most recent first.
    fn files_update_recent_menu(&self) {
        let menu = self.imp().recent_menu.get();
        menu.remove_all();
        let recent = existing_recent(&self.settings().recent_files);
        if recent.is_empty() {
            // An item without an action is shown greyed out.
            menu.append(Some(&gettext("No Recent Files")), None);
        }
        for path in recent {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().replace('_', "__"))
                .unwrap_or_default();
            let item = gio::MenuItem::new(Some(&name), None);
            item.set_action_and_target_value(
                Some("win.open-recent"),
                Some(&path.to_string_lossy().to_variant()),
            );
            menu.append_item(&item);
        }
    }
}
