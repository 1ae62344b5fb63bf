; C++ definitions for the speky scanner (captures: see README.md).

; GoogleTest: TEST(Suite, Name), TEST_F, TEST_P, TYPED_TEST...: Suite.Name
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @anchor
     parameters: (parameter_list
       . (parameter_declaration type: (type_identifier) @qualifier)
       . (parameter_declaration type: (type_identifier) @name) .))) @definition.test
 (#match? @anchor "^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P|GTEST_TEST|FRIEND_TEST)$")
 (#set! qualifier_separator "."))

; Catch2 and doctest: TEST_CASE("title", "[tags]") { ... } parses as a call then a block.
((call_expression
   function: (identifier) @anchor
   arguments: (argument_list . (string_literal) @name)) @definition.test
 (#match? @anchor "^(TEST_CASE|SCENARIO|TEMPLATE_TEST_CASE|TEMPLATE_PRODUCT_TEST_CASE|TEMPLATE_LIST_TEST_CASE)$"))
((call_expression
   function: (identifier) @anchor
   arguments: (argument_list . (_) . (string_literal) @name)) @definition.test
 (#match? @anchor "^(TEST_CASE_METHOD|TEST_CASE_FIXTURE)$"))

; Boost.Test: BOOST_AUTO_TEST_CASE(name) and its suites.
((function_definition
   declarator: (function_declarator
     declarator: (identifier) @anchor
     parameters: (parameter_list . (parameter_declaration type: (type_identifier) @name)))) @definition.test
 (#match? @anchor "^(BOOST_AUTO_TEST_CASE|BOOST_FIXTURE_TEST_CASE|BOOST_DATA_TEST_CASE)$"))

; Member functions written in a class body (inline, declared, templated).
(field_declaration_list
  [(function_definition
     declarator: [(function_declarator declarator: (_) @name)
                  (pointer_declarator declarator: (function_declarator declarator: (_) @name))
                  (reference_declarator (function_declarator declarator: (_) @name))])
   (field_declaration
     declarator: [(function_declarator declarator: (_) @name)
                  (pointer_declarator declarator: (function_declarator declarator: (_) @name))
                  (reference_declarator (function_declarator declarator: (_) @name))])
   (declaration
     declarator: (function_declarator declarator: (_) @name))] @definition.method)
(field_declaration_list
  (template_declaration
    [(function_definition
       declarator: [(function_declarator declarator: (_) @name)
                    (pointer_declarator declarator: (function_declarator declarator: (_) @name))
                    (reference_declarator (function_declarator declarator: (_) @name))])
     (declaration
       declarator: (function_declarator declarator: (_) @name))] @definition.method))

; Free functions and out-of-class member definitions (Type::method keeps its written name).
(function_definition
  declarator: [(function_declarator declarator: (_) @name)
               (pointer_declarator declarator: (function_declarator declarator: (_) @name))
               (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name)))
               (reference_declarator (function_declarator declarator: (_) @name))]) @definition.function
(declaration
  declarator: [(function_declarator declarator: (_) @name)
               (pointer_declarator declarator: (function_declarator declarator: (_) @name))
               (reference_declarator (function_declarator declarator: (_) @name))]) @definition.function

(namespace_definition name: (_) @name) @definition.namespace
(class_specifier name: (_) @name body: (field_declaration_list)) @definition.class
(struct_specifier name: (_) @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (_) @name body: (field_declaration_list)) @definition.struct
(enum_specifier name: (_) @name body: (enumerator_list)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.type
(translation_unit
  (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_function_def name: (identifier) @name) @definition.macro
(preproc_def name: (identifier) @name) @definition.macro

; A prototype followed by a macro the grammar can't know (`extern int f (void) __THROW;`,
; system headers) parses as an ERROR holding its declarator: still the function's
; definition when that declarator parsed cleanly (the engine checks; see README).
(ERROR
  [(function_declarator declarator: [(identifier) (field_identifier)] @name)
   (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))]) @definition.function
