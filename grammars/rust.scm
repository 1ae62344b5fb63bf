; Rust definitions for the speky scanner (captures: see README.md).

; #[test], #[tokio::test], #[rstest], #[test_case(...)]...: the last path segment decides.
((attribute_item
   (attribute . [(identifier) @_attr (scoped_identifier name: (identifier) @_attr)])) @test.attribute
 (#match? @_attr "^(test|rstest|test_case|quickcheck|wasm_bindgen_test)$"))

; Functions in impl and trait blocks are methods: Type::method, Trait::method
(impl_item body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(trait_item
  body: (declaration_list
    [(function_item name: (identifier) @name)
     (function_signature_item name: (identifier) @name)] @definition.method))

(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function

; impl blocks qualify their functions with the implementing type.
(impl_item
  type: [(type_identifier) @name
         (generic_type type: (type_identifier) @name)
         (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
         (scoped_type_identifier name: (type_identifier) @name)]) @definition.impl

(mod_item name: (identifier) @name) @definition.module
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(macro_definition name: (identifier) @name) @definition.macro
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant

; Enum variants: Kind::Discounted (the enum qualifies them).
(enum_variant_list (enum_variant name: (identifier) @name) @definition.enum_member)
