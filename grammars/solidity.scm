; Solidity definitions for the speky scanner (captures: see README.md).
; Contracts have kind `class`: Foundry's rule (test* functions of a contract inheriting
; forge-std's Test) is the naming rule of test methods in test classes.

(contract_body
  [(function_definition name: (identifier) @name)
   (modifier_definition name: (identifier) @name)
   (constructor_definition "constructor" @name)
   (fallback_receive_definition ["receive" "fallback"] @name)] @definition.method)
(function_definition name: (identifier) @name) @definition.function

(contract_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(library_declaration name: (identifier) @name) @definition.module
(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(event_definition name: (identifier) @name) @definition.type
(error_declaration name: (identifier) @name) @definition.type
(state_variable_declaration name: (identifier) @name) @definition.field
(source_file (constant_variable_declaration name: (identifier) @name) @definition.constant)

; Base contracts, for the test rule.
(contract_declaration (inheritance_specifier ancestor: (user_defined_type (identifier) @base .))) @definition.class
