//! Edit mode in the controller: a [`Draft`] of the position being set up, made from the
//! position on the board, changed by the board and the edit bar, and left either by playing on
//! from it — a set-up in the record of the game in progress, or a new match or session — or
//! by cancelling. While the draft is open the flow waits: nobody acts in the match, the board
//! and the IDs show the draft.

use cubeful_engine::formats::ids::{identify, IdentifyError};
use cubeful_engine::game::record::Setup;
use cubeful_engine::game::GameError;
use cubeful_engine::MatchState;

use super::{Controller, Effect, State};
use crate::edit::{Draft, EditOp};
use crate::i18n::gettext;
use crate::session::{error_text, Session};

/// How play goes on from a valid draft (see [`Controller::plan_edit_play`]).
#[derive(Debug)]
pub enum EditPlay {
    /// The draft is a set-up of the game in progress (same match, score and Crawford game).
    SetUp(Setup),
    /// A new match or session from the draft (the one in progress is dropped).
    NewSession(Box<Session>),
}

impl Controller {
    /// True while a position is being edited.
    pub fn is_editing(&self) -> bool {
        self.edit.is_some()
    }

    /// The position being edited.
    pub fn draft(&self) -> Option<&Draft> {
        self.edit.as_ref()
    }

    /// Enters edit mode with the position on the board (the starting position when there is
    /// no game, or the game is over). Refused while the bot is thinking or a move is shown; an
    /// action waiting for the tutor is withdrawn.
    pub fn enter_edit(&mut self) -> Vec<Effect> {
        if self.edit.is_some() {
            return Vec::new();
        }
        if self.is_busy() {
            return vec![Effect::Toast(gettext(
                "Wait until the bot has moved, then edit the position.",
            ))];
        }
        let names = self
            .session
            .as_ref()
            .map_or_else(|| self.defaults.names.clone(), |s| s.setup().names.clone());
        let draft = match self.shown_state() {
            Some((position, state)) if position.result().is_none() => {
                Draft::from_state(position, state, names)
            }
            Some((_, state)) => {
                let mut fresh = MatchState::new_match(state.match_length);
                fresh.score = state.score;
                fresh.jacoby = state.jacoby;
                Draft::new(fresh, names)
            }
            None => Draft::new(MatchState::money(), names),
        };
        // The next game does not start by itself while the position is edited.
        if let State::NextGameSoon { .. } = self.state {
            self.state = State::GameOver;
        }
        let mut fx = Vec::new();
        // An action the tutor is judging (or warned about) is withdrawn, as if reconsidered:
        // nothing is committed to the match behind the draft while it is edited.
        if self.tutor_job().is_some() || self.tutor_warning().is_some() {
            self.tutor_drop(&mut fx);
            self.state = State::HumanToAct;
        }
        self.edit = Some(draft);
        self.update_hint(&mut fx);
        fx
    }

    /// Changes the draft (an open hint window then studies the new draft); no effects when
    /// nothing changed (or there is no draft).
    pub fn edit(&mut self, op: EditOp) -> Option<Vec<Effect>> {
        if !self.edit.as_mut().is_some_and(|d| d.apply(op)) {
            return None;
        }
        let mut fx = Vec::new();
        self.update_hint(&mut fx);
        Some(fx)
    }

    /// Leaves edit mode without changing the match.
    pub fn cancel_edit(&mut self) -> Vec<Effect> {
        let mut fx = Vec::new();
        if self.edit.take().is_none() {
            return fx;
        }
        if self.state == State::GameOver {
            self.proceed(&mut fx);
        }
        self.update_hint(&mut fx);
        fx
    }

    /// What playing on from the draft would do, or the sentence saying why it cannot be
    /// played from. With a game in progress at the same match length, score and Crawford flag
    /// (and no earlier action reviewed), the draft becomes a set-up in its record; otherwise a
    /// new match or session starts from it, against the same opponent.
    pub fn plan_edit_play(&self) -> Result<EditPlay, String> {
        let Some(draft) = &self.edit else {
            return Err(gettext("No position is being edited."));
        };
        let (position, state) = draft.validate()?;
        let same_game = self.review.is_none()
            && self.session.as_ref().is_some_and(|s| {
                let g = s.game();
                let now = g.match_state();
                g.in_progress()
                    && g.match_winner().is_none()
                    && now.match_length == state.match_length
                    && now.score == state.score
                    && g.is_crawford_game() == state.crawford
                    && now.jacoby == state.jacoby
            });
        if same_game {
            return draft.setup().map(EditPlay::SetUp);
        }
        let setup = self
            .session
            .as_ref()
            .map_or_else(|| self.defaults.clone(), |s| s.setup().clone());
        Session::from_position(setup, position, state)
            .map(|s| EditPlay::NewSession(Box::new(s)))
            .map_err(|e| match e {
                GameError::InvalidSetup(_) | GameError::InvalidRules(_) => {
                    gettext("No game can be played from this position and score.")
                }
                e => error_text(&e),
            })
    }

    /// Leaves edit mode playing on as `plan` says; a refusal keeps the draft open.
    pub fn play_from_edit(&mut self, plan: EditPlay) -> Vec<Effect> {
        match plan {
            EditPlay::NewSession(session) => {
                self.edit = None;
                self.resume(*session)
            }
            EditPlay::SetUp(setup) => {
                let mut fx = Vec::new();
                let Some(session) = self.session.as_mut() else {
                    return fx;
                };
                match session.set_up(&setup) {
                    Ok(_) => {
                        self.edit = None;
                        self.drop_work(&mut fx);
                        self.record_version += 1;
                        self.proceed(&mut fx);
                        self.update_hint(&mut fx);
                    }
                    Err(e) => fx.push(Effect::Toast(error_text(&e))),
                }
                fx
            }
        }
    }

    /// [`Controller::plan_edit_play`] and [`Controller::play_from_edit`] in one step; a draft
    /// that cannot be played from is a toast with the reason.
    pub fn play_edited(&mut self) -> Vec<Effect> {
        match self.plan_edit_play() {
            Ok(plan) => self.play_from_edit(plan),
            Err(sentence) => vec![Effect::Toast(sentence)],
        }
    }

    /// Sets the draft from a Position ID (seen from the player on roll in the draft), a GNU
    /// Backgammon ID or an XGID (with their match state); `Err` is the sentence to show.
    pub fn paste_into_draft(&mut self, text: &str) -> Result<(), String> {
        let Some(draft) = &self.edit else {
            return Err(gettext("No position is being edited."));
        };
        let (position, state) = identify(text).map_err(|e| match e {
            IdentifyError::Xgid(_) => gettext("That XGID is not a valid position."),
            _ => gettext("That is not a Position ID, a GNU Backgammon ID or an XGID."),
        })?;
        let state = state.unwrap_or_else(|| draft.match_state());
        let names = draft.names.clone();
        self.edit = Some(Draft::from_state(position, state, names));
        Ok(())
    }

    /// The status line while editing.
    pub(super) fn edit_status(&self) -> Option<String> {
        self.edit.as_ref().map(|_| {
            gettext(
                "Editing: click a point to set its checkers (right button: the top player's), drag checkers, click the dice or the cube.",
            )
        })
    }
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
