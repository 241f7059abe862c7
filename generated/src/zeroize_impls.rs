//! `zeroize::Zeroize` for the generated prime fields, written once against the inherent API
//! every generated field has (`ZERO`, `Copy`): secret field elements and scalars can be wiped
//! with the same guarantees as the zeroize crate's own impls.

/// Implements `zeroize::Zeroize` for a generated field type `$t`: a volatile write of `ZERO`
/// over the value, then a compiler fence, as the zeroize crate does for its primitive types,
/// so the store is not removed as dead.
macro_rules! impl_zeroize {
    ($t:ty) => {
        impl ::zeroize::Zeroize for $t {
            fn zeroize(&mut self) {
                // SAFETY: `self` is a valid, aligned, exclusive reference to a `Copy` value with
                // no drop glue, so overwriting it in place is sound.
                unsafe { ::core::ptr::write_volatile(self, <$t>::ZERO) };
                ::core::sync::atomic::compiler_fence(::core::sync::atomic::Ordering::SeqCst);
            }
        }
    };
}
