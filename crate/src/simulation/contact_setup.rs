//! The contacts' analysis a run makes at its start, and their forces at one state.

use super::*;

/// How each contact's force is found at `initial` (the analysis a run makes at its
/// start), with whether it is determined; `None` without contacts.
pub fn contact_analysis(numeric: &NumericModel, initial: &State) -> Option<Vec<crate::mechanics::ContactInfo>> {
    let mut numeric = numeric.clone();
    numeric.contacts.as_ref()?;
    validity::prepare(&mut numeric, initial.t, &initial.q);
    numeric.contacts.as_ref().map(|c| c.contacts().to_vec())
}

/// Makes the contact analysis of a run starting at `initial` once, into `numeric`,
/// for every run cloned from it: the runs of one parameter set under several
/// methods make the same choice (it follows the true motion, whatever the method),
/// and for a large model it is most of a run's set-up (30 rolling balls: 0.13 s a
/// run, 28 runs 3 s). A run of a model prepared so does not choose again.
pub fn prepare_contacts(numeric: &mut NumericModel, initial: &State) {
    validity::prepare(numeric, initial.t, &initial.q);
}

/// Each contact's force at a state, with how it is found.
pub type ContactForcesAt = (Vec<crate::mechanics::ContactForce>, Vec<crate::mechanics::ContactInfo>);

/// The contact forces at `state` under `method` (`nhlab eval`), with how each is
/// found; `None` without contacts or for a vakonomic run.
pub fn contact_forces_at(
    numeric: &mut NumericModel,
    method: Method,
    state: &State,
) -> Result<Option<ContactForcesAt>, DynamicsError> {
    validity::prepare(numeric, state.t, &state.q);
    let mut y = state.q.clone();
    y.extend(&state.v);
    y.extend(&state.mu);
    if !validity::forces_at(numeric, method, state.t, &y, None)? {
        return Ok(None);
    }
    Ok(numeric.contacts.as_ref().map(|c| (c.forces().to_vec(), c.contacts().to_vec())))
}
