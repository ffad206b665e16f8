//! Pair bookkeeping shared by the broad phases: which pairs overlap, and which began and ended
//! since the last [`update_pairs`](crate::broad::BroadPhase::update_pairs).
//!
//! [`Pair`] and [`PairChanges`] (`pair.rs`) are what every structure reports. Behind them, three
//! partner stores hold the pair set between reports; an `update_pairs` goes through them in
//! these steps:
//!
//! 1. **Exact partner lists** (`pair_tracker.rs`, [`PairTracker`](pair_tracker::PairTracker),
//!    one [`PartnerList`](partner_list::PartnerList) per proxy): the hash grid's and
//!    sweep-and-prune's record of the reported pairs, symmetric, a few slots inline per proxy.
//!    Incrementally, each moved proxy asks its structure for candidates and compares the
//!    overlapping ones with its list: new partners began, missing ones ended.
//! 2. **Fat partner lists** (`tree_partners.rs`, [`TreePairs`](tree_partners::TreePairs), one
//!    cache-line [`FatPartnerList`](partner_list::FatPartnerList) per proxy): the tree's
//!    record of the proxies whose fat boxes overlap each proxy's, each entry flagged while the
//!    pair is reported. A moved proxy tests its listed partners' exact boxes and flips flags; a
//!    proxy whose fat box changed has its list rebuilt from a tree query, its flagged pairs
//!    lifted out first and flagged again where the pair is still listed.
//! 3. **Pairs from scratch, grouped by lower slot** (`pair_tracker.rs`,
//!    [`PairsByLower`](pair_tracker::PairsByLower), filled by
//!    [`DensePairs`](dense_pairs::DensePairs) in `dense_pairs.rs`): when most proxies moved,
//!    every pair is found at once over flat grids and counting-sorted by lower slot, and that
//!    set is compared with store 1 or 2, which is then replaced (exact lists) or left to be
//!    corrected by the next incremental update (fat lists). The hash grid's full pass and the
//!    tree's fat-partner recompute use the same dense pass.
//!
//! [`MarkedSlots`](pair_tracker::MarkedSlots) (the moved proxies, and the tree's proxies with
//! a new fat box) feeds steps 1 and 2; every store reports pairs sorted by `(lower, higher)`.

pub(crate) mod dense_pairs;
mod pair;
pub(crate) mod pair_tracker;
pub(crate) mod partner_list;
pub(crate) mod tree_partners;

pub use pair::{Pair, PairChanges};
