//! The first phase: which balances to use, chosen once from states of the true
//! motion at random admissible velocities, and what they determine.

use super::*;

impl ContactForces {
    /// Chooses the balances to use from `states` (each `(t, q, v, q̈)` of the
    /// true motion at random admissible velocities), links written constraints to
    /// the contacts whose normal condition they are, and says what is determined.
    pub fn choose(&mut self, states: &[State<'_>]) {
        self.chosen = true;
        // Written constraints whose row is in a contact's J are its normal condition.
        let mut evaluated: Vec<Vec<f64>> = Vec::new();
        for s in states {
            if self.load(s).is_err() {
                self.contacts.iter_mut().for_each(|c| c.how = "its terms are not finite at the start".into());
                return;
            }
            evaluated.push(self.outputs.clone());
        }
        let n = self.n;
        let mut linked: Vec<(usize, usize)> = Vec::new();
        for &j in &self.written {
            for k in 0..self.contacts.len() {
                let inside = evaluated.iter().all(|out| {
                    let jac = &out[self.contact_offset(k) + 3..][..3 * n];
                    let row = DVector::from_column_slice(&out[self.dynamics_offset() + n * n + n + j * n..][..n]);
                    let basis = DMatrix::from_fn(n, 3, |i, c| jac[c * n + i]);
                    in_column_space(&basis, &row)
                });
                if inside {
                    linked.push((j, k));
                    break;
                }
            }
        }
        self.written.retain(|j| !linked.iter().any(|(w, _)| w == j));
        // Candidate sets: each contact's body alone, then every body that moves.
        let moving = self.moving.clone();
        let mut candidates: Vec<Vec<bool>> = Vec::new();
        for &(body, on) in &self.ends {
            for b in core::iter::once(body).chain(on) {
                let mut set = alloc::vec![false; self.bodies];
                set[b] = true;
                if moving[b] && !candidates.contains(&set) {
                    candidates.push(set);
                }
            }
        }
        if moving.iter().filter(|&&m| m).count() > 1 {
            candidates.push(moving.clone());
        }
        self.sets.clear();
        for candidate in candidates {
            self.sets.push(candidate);
            let balanced = states.iter().zip(&evaluated).all(|(s, out)| {
                self.outputs.copy_from_slice(out);
                self.solve(s.accelerations).is_ok()
            });
            if !balanced {
                self.sets.pop();
            }
        }
        // What is determined: the null space of the system at the first state.
        self.outputs.copy_from_slice(&evaluated[0]);
        let (matrix, _, _) = self.system(states[0].accelerations);
        let free = null_space(&matrix);
        self.full_rank = free.is_empty();
        for k in 0..self.contacts.len() {
            let directions = self.directions(k);
            let determined =
                |d: &[f64; 3]| free.iter().all(|z| (0..3).map(|c| d[c] * z[3 * k + c]).sum::<f64>().abs() < 1e-6);
            let normal = determined(&directions[0]);
            let tangential = determined(&directions[1]) && determined(&directions[2]);
            let info = &mut self.contacts[k];
            info.determined = [normal, tangential];
            let (body, _) = self.ends[k];
            let balances: Vec<String> = self
                .sets
                .iter()
                .filter(|set| set[body])
                .map(|set| {
                    let names: Vec<&str> =
                        (0..set.len()).filter(|&b| set[b]).map(|b| self.body_names[b].as_str()).collect();
                    if names.len() == 1 {
                        format!("`{}`", names[0])
                    } else {
                        String::from("all moving bodies")
                    }
                })
                .collect();
            let from = if balances.is_empty() {
                String::from("the equations of motion alone")
            } else {
                format!("the equations of motion and the balance of {}", balances.join(" and of "))
            };
            let normal_by = linked
                .iter()
                .find(|(_, c)| *c == k)
                .map(|&(j, _)| format!("; its normal condition is the constraint `{}`", self.constraint_names[j]));
            info.how = match (normal, tangential) {
                (true, true) => format!("from {from}{}", normal_by.unwrap_or_default()),
                (false, true) => format!(
                    "friction from {from}; the normal force is not determined: the bodies are held by more than \
                     their contacts (a joint, pin or support the model builds into its coordinates)"
                ),
                (true, false) => format!(
                    "normal force from {from}; the friction is shared with other contacts in a way the rigid \
                     model does not determine"
                ),
                (false, false) => String::from(
                    "not determined: the bodies are held by more than their contacts (a joint, pin or support \
                     the model builds into its coordinates)",
                ),
            };
        }
    }
}
